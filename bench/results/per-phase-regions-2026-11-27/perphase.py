# The per-phase cells of stored accuracy runs: the loop's estimate (as
# stored) against its region's (run.py's region_time), |error| in percent.
import json,statistics,sys,os
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', '..', 'accuracy')); sys.path.insert(0, os.path.join(here, '..', '..'))
import run as R
for run in sys.argv[1:]:
    d=json.load(open(run+'/data.json'))
    old=[];new=[]
    for a in d['apps']:
        tag=a['base_files'][0].split('.base')[0]
        for p in a['phases']:
            for c,v in p['per_config'].items():
                if v.get('busy_time') or v.get('estimated_s') is None or not v.get('measured_s'): continue
                est=json.load(open(run+'/raw/%s.estimate.%s.json'%(tag,c)))
                node=[r['node'] for r in a['rows'] if r['config']==c][0]
                rt=R.region_time(est,node,p['id'])
                e=v['estimated_s']; m=v['measured_s']
                old.append(abs(e/m-1)*100)
                new.append(abs((rt if rt is not None else e)/m-1)*100)
    print('%-50s n=%d  loop: med %.1f max %.1f   region: med %.1f max %.1f'%(run.split('quiet-')[-1][:50],len(old),statistics.median(old),max(old),statistics.median(new),max(new)))
