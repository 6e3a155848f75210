export { CONSOLE_CSP, registerConsole } from './console.routes.js';
export { consoleFiles, loadConsoleFiles } from './console-files.js';
