import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
// Rendered and listening: the browser test reads this mark as the time to interactive.
performance.mark('console-interactive');
