// The machine's ceiling for the benchmark: a bare node:http server answering a small JSON body.
import { createServer } from 'node:http';

const body = JSON.stringify({
  result: { id: '00000000-0000-0000-0000-000000000000', hostname: 'ceiling.example.com' },
});
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
