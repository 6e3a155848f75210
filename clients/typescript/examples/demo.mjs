// clients/typescript/examples/demo.mjs: run it with node clients/typescript/examples/demo.mjs
import { Coinop, NotFound } from '@coinop/client';

// No options: the URL and the token are read as the CLI reads them (COINOP_URL and COINOP_TOKEN, else what
// `coinop token new --save` saved, else http://localhost:8080).
const coinop = new Coinop();
const set = await coinop.kvSet('demo', 'greeting', 'hello again', { ttl: 60 });
console.log(set.data, set.cost, set.balance); // OK 1 97
try {
  await coinop.kvGet('demo', 'missing');
} catch (error) {
  if (!(error instanceof NotFound)) throw error;
  console.log(error.body, error.cost, error.balance); // Key Not Found 1 96
}
