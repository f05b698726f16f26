#!/usr/bin/env python3
"""Blocking / persistent in the same launch (mcb_<coll> --interface persistent,blocking,
one size), for several variants (a build folder and environment variables) interleaved
launch by launch, the order of the interfaces and of the variants turned every launch.
Per variant and size: the median over launches of blocking/persistent for the CSV's
median_us (per iteration the slowest rank, then the median), avg_us (their mean) and
osu_avg_us (each rank's mean, then the mean over ranks: the throughput of calls back to
back when MCB_SCRATCH_B2B drops the per-iteration barrier), with [min-max], and the
median times. Open MPI (mpirun.openmpi), 2 ranks bound. Extra mcb arguments in XP_ARGS.

    ifab.py LAUNCHES allreduce|reduce|bcast SIZE[,SIZE] NAME=BUILD[:VAR=VALUE...] ...
"""
import csv, os, statistics, subprocess, sys, tempfile
# usage: ifab.py LAUNCHES COLL SIZE[,SIZE] name=build[:ENV=V] ...
n=int(sys.argv[1]); coll=sys.argv[2]; sizes=sys.argv[3].split(','); variants=[]
for spec in sys.argv[4:]:
    name,rest=spec.split('=',1); parts=rest.split(':'); env={}
    for kv in parts[1:]:
        k,v=kv.split('=',1); env[k]=v
    variants.append((name,parts[0],env))
alg={'allreduce':('shm_recursive_exchange','float'),'reduce':('shm_tree','float'),'bcast':('shm_tree','char')}[coll]
res={}
tmp=tempfile.mkdtemp()
for i in range(n):
    order=['persistent','blocking'] if i%2==0 else ['blocking','persistent']
    vs=variants if i%2==0 else variants[::-1]
    for size in sizes:
        for name,build,extra in vs:
            env=dict(os.environ); env.update(extra); env['HWLOC_COMPONENTS']='-linuxio,-pci'
            out=os.path.join(tmp,'r.csv')
            if os.path.exists(out): os.remove(out)
            cmd=['mpirun.openmpi','--allow-run-as-root','--bind-to','core','-n','2',f'{build}/src/mcb_{coll}','--algorithm',alg[0],'-T',alg[1],'-m',f'{size}:{size}','--interface',','.join(order),'--csv',out]+os.environ.get('XP_ARGS','').split()
            subprocess.run(cmd,check=True,capture_output=True,env=env)
            t={}
            for row in csv.DictReader(open(out)):
                if row['phase']!='total': continue
                p=dict(kv.split('=',1) for kv in row['params'].split(';') if '=' in kv)
                t[p['interface']]=(float(row['median_us']),float(row['avg_us']),float(row['osu_avg_us']))
            res.setdefault((name,size),[]).append(t)
for (name,size),ts in res.items():
    rm=[t['blocking'][0]/t['persistent'][0] for t in ts]; ra=[t['blocking'][1]/t['persistent'][1] for t in ts]; ro=[t['blocking'][2]/t['persistent'][2] for t in ts]
    print(f"{name:10} {size:>6} median-ratio {statistics.median(rm):.3f} [{min(rm):.2f}-{max(rm):.2f}]  avg-ratio {statistics.median(ra):.3f} [{min(ra):.2f}-{max(ra):.2f}]  osuavg-ratio {statistics.median(ro):.3f}  pers med/avg {statistics.median(t['persistent'][0] for t in ts):.3f}/{statistics.median(t['persistent'][1] for t in ts):.3f} block {statistics.median(t['blocking'][0] for t in ts):.3f}/{statistics.median(t['blocking'][1] for t in ts):.3f}")
