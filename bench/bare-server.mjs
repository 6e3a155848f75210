// The baseline: a bare node:http hello-world server.
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 0);
createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end('hello');
}).listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
