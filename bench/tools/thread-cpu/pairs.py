import sys,json,statistics as st
rows=[json.loads(l) for f in sys.argv[1:] for l in open(f) if l.startswith('{')]
pairs={'search':[],'msearch':[]}
i=0
while i+1<len(rows):
  a,b=rows[i],rows[i+1]
  if a['mode']==b['mode'] and {a['label'],b['label']}=={'this','base'}:
    t,bs=(a,b) if a['label']=='this' else (b,a)
    pairs[a['mode']].append((t,bs,a['label']))
    i+=2
  else: i+=1
for mode,ps in pairs.items():
  print(f"== {mode}: {len(ps)} pairs")
  for k in ['total','main','workers','helpers']:
    r=[t[k]/b[k] for t,b,_ in ps]
    print(f"  {k:8s} this/base per pair: {' '.join('%.2f'%x for x in r)}  median {st.median(r):.3f}  cheaper in {sum(x<1 for x in r)}/{len(r)}")
  for k in ['workerVcs','mainVcs','perBatch']:
    print(f"  {k:9s} base {st.median([b[k] for t,b,_ in ps]):.1f} this {st.median([t[k] for t,b,_ in ps]):.1f}")
  print(f"  total µs median base {st.median([b['total'] for t,b,_ in ps]):.1f} this {st.median([t['total'] for t,b,_ in ps]):.1f}; main base {st.median([b['main'] for t,b,_ in ps]):.1f} this {st.median([t['main'] for t,b,_ in ps]):.1f}")
  print(f"  p99/p50 median base {st.median([b['p99']/b['p50'] for t,b,_ in ps]):.2f} this {st.median([t['p99']/t['p50'] for t,b,_ in ps]):.2f}; load {min(float(t['load']) for t,b,_ in ps)}-{max(float(t['load']) for t,b,_ in ps)}")
