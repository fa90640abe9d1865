// The main isolate's (the first one printed) --trace-gc-nvp lines of a heap-trace.mjs window, one line per GC:
// kind, pause, MB before/after, KB allocated since the last GC, promoted and survived (issue 19, gc-i19g).
//   node bench/tools/thread-cpu/nvp-main.cjs <window log>
const L=require('fs').readFileSync(process.argv[2],'utf8').split('\n');
const first=/\[\d+:(0x[0-9a-f]+)\]/.exec(L.find(l=>/\[\d+:0x[0-9a-f]{6,8}\]/.test(l))||'')?.[1];
for(const l of L){ if(!l.includes('gc=')) { if(l.includes(first)||l.includes('HEAPSTAT')) console.log(l.slice(0,220)); continue;} if(!l.includes(first)) continue;
const f=Object.fromEntries(l.split(/\s+/).filter(x=>x.includes('=')).map(x=>x.split('=')));
const ms=/(\d+) ms:/.exec(l)[1];
console.log(ms, f.gc, 'pause',f.pause,'mut',f.mutator,'before',(f.total_size_before/1048576).toFixed(1),'after',(f.total_size_after/1048576).toFixed(1),'alloc',(f.allocated/1024|0),'K promoted',(f.promoted/1024|0),'K surv',(f.new_space_survived/1024|0), 'K prom%',f.promotion_ratio,'avg_surv',f.average_survival_ratio);
}
