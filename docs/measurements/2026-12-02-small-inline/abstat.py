import sys,statistics as S,collections as C
d=C.defaultdict(dict)
for line in open(sys.argv[1]):
    f=line.split()
    if len(f)<4: continue
    d[(int(f[0]),int(f[2]))][f[1]]=float(f[3])
sizes=sorted({k[0] for k in d})
for s in sizes:
    r=[v['new']/v['old'] for k,v in d.items() if k[0]==s and 'new' in v and 'old' in v]
    o=[v['old'] for k,v in d.items() if k[0]==s and 'old' in v]; n=[v['new'] for k,v in d.items() if k[0]==s and 'new' in v]
    print(f"{s:>8} old {S.median(o):.3f} new {S.median(n):.3f} us  new/old median {S.median(r):.2f} [{min(r):.2f}-{max(r):.2f}] ahead {sum(x<1 for x in r)}/{len(r)}")
