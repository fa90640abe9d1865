/**
 * The fastify hello-world route the HTTP scenario compares against: the same fastify version and
 * process model as threadsearch's HTTP layer, doing nothing but answering.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
app.post('/', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
