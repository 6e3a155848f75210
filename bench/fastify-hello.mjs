// The stack's floor: a Fastify hello world (no hooks, no logger), the framework coinop's routes run on.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', (_request, reply) => {
  reply.type('text/plain').send('hello');
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
