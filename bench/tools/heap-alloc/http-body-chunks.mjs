// ad-hoc (issue 19, gc-i19bulk): how Node 20 hands an HTTP request body to JS — prints the chunk count
// and how many distinct ArrayBuffers they lie in (each chunk its own: the parser copies every socket read).
import http from 'node:http';
const body = Buffer.alloc(1_200_000, 97);
const srv = http.createServer((req, res) => {
  const bufs = new Map(); let n = 0, sizes = [];
  req.on('data', (c) => { n++; bufs.set(c.buffer, (bufs.get(c.buffer) ?? 0) + 1); sizes.push(c.length + '/' + c.buffer.byteLength + '@' + c.byteOffset); });
  req.on('end', () => { console.log('chunks', n, 'distinct buffers', bufs.size, sizes.slice(0, 8).join(' ')); res.end('ok'); srv.close(); });
});
srv.listen(0, async () => { const r = await fetch(`http://127.0.0.1:${srv.address().port}/`, { method: 'POST', body }); await r.text(); });
