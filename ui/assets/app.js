// app.js — Lore's web inspector. It reads Lore's own HTTP API with the key
// typed into the page (kept in this tab's sessionStorage, sent as Bearer) or
// with none on an open loopback server: facts, entities, episodes, graph,
// search (with helpful/not helpful verdicts), profile and feedback. Every
// value from the server becomes a text node, never markup. The view lives in the URL fragment
// (#user=alice&view=graph&entity=…&q=…), so a view can be linked and reloaded.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const state = { graph: null, graphUser: "", factsPage: 1, episodesPage: 1, selected: "", graphView: null };

  // h builds an element: h("td", {class: "x"}, "text", child, …).
  function h(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] !== undefined && attrs[k] !== null && attrs[k] !== false) e.setAttribute(k, attrs[k]);
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      e.appendChild(typeof kid === "string" || typeof kid === "number" ? document.createTextNode(String(kid)) : kid);
    }
    return e;
  }
  const clear = (e) => { while (e.firstChild) e.removeChild(e.firstChild); return e; };

  function when(t) {
    if (!t || t.startsWith("0001-")) return "";
    const d = new Date(t);
    return isNaN(d) ? "" : d.toISOString().slice(0, 16).replace("T", " ");
  }
  const day = (t) => when(t).slice(0, 10);

  // --- location state -----------------------------------------------------
  function route() {
    const p = new URLSearchParams(location.hash.slice(1));
    return { user: p.get("user") || "", view: p.get("view") || "facts", entity: p.get("entity") || "", q: p.get("q") || "", at: p.get("at") || "" };
  }
  function go(changes) {
    const r = Object.assign(route(), changes);
    const p = new URLSearchParams();
    for (const k of ["user", "view", "entity", "q", "at"]) if (r[k]) p.set(k, r[k]);
    location.hash = p.toString();
  }

  // --- the API ------------------------------------------------------------
  const key = () => sessionStorage.getItem("lore.key") || "";
  const tenant = () => sessionStorage.getItem("lore.tenant") || "";

  async function api(method, path, body) {
    const headers = { Accept: "application/json" };
    if (key()) headers.Authorization = "Bearer " + key();
    else if (tenant()) headers["X-Lore-Tenant"] = tenant();
    const init = { method, headers };
    if (body !== undefined) { headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    const res = await fetch(path, init);
    let data = null;
    try { data = await res.json(); } catch (e) { /* an empty or non-JSON answer */ }
    if (!res.ok) {
      const err = new Error(data && data.error ? data.error.message : res.status + " " + res.statusText);
      err.status = res.status;
      err.code = data && data.error ? data.error.code : "";
      throw err;
    }
    return data;
  }
  const userQuery = (extra) => new URLSearchParams(Object.assign({ user_id: route().user }, extra)).toString();

  function status(msg, isError) {
    const s = $("status");
    s.textContent = msg;
    s.classList.toggle("error", !!isError);
  }
  function failed(err) {
    if (err.status === 401) status("This server needs an API key: paste one above (lore keys create --tenant T). " + err.message, true);
    else if (err.status === 403) status("Refused: " + err.message, true);
    else status(err.message, true);
  }

  // --- facts --------------------------------------------------------------
  function factStatus(f) {
    if (f.expired_at) return "superseded";
    if (f.invalid_at && new Date(f.invalid_at) <= new Date()) return "ended";
    return "current";
  }
  const badge = (f) => { const s = factStatus(f); return h("span", { class: "badge " + s }, s); };
  const validity = (f) => (f.valid_at || f.invalid_at ? `${day(f.valid_at) || "…"} → ${day(f.invalid_at) || "now"}` : "");
  const triple = (f) => h("span", { class: "triple" }, `${f.subject} · ${f.predicate} · ${f.object}`);

  async function loadFacts(more) {
    state.factsPage = more ? state.factsPage + 1 : 1;
    const body = $("facts-table").tBodies[0];
    if (!more) clear(body);
    const page = await api("GET", "/v1/memories?" + userQuery({ type: "fact", page: state.factsPage, page_size: 200, include_invalidated: $("facts-ended").checked }));
    for (const m of page.results) {
      const f = m.fact;
      body.appendChild(h("tr", { class: factStatus(f) === "current" ? "" : "ended", "data-id": f.id, onclick: () => showFact(f.id) },
        h("td", {}, f.fact), h("td", {}, triple(f)), h("td", { class: "date" }, validity(f)), h("td", {}, badge(f)),
        h("td", {}, f.count + "×"), h("td", { class: "date" }, day(f.last_seen))));
    }
    $("facts-more").hidden = !page.has_more;
    filterRows("facts");
  }

  async function showFact(id) {
    const u = route().user;
    const m = await api("GET", `/v1/memories/${encodeURIComponent(id)}?` + userQuery());
    const f = m.fact;
    let hist = [];
    try { hist = (await api("GET", `/v1/memories/${encodeURIComponent(id)}/history?` + userQuery())).results; } catch (e) { if (e.status !== 404) throw e; }
    const sources = await episodes(f ? f.source_episode_ids : [m.id]);
    if (u !== route().user) return;
    const body = panel();
    if (!f) { body.appendChild(episodeDetail(m.episode)); return; }
    body.append(
      h("h2", {}, f.fact), badge(f),
      h("dl", {},
        h("dt", {}, "triple"), h("dd", {}, triple(f)),
        h("dt", {}, "valid"), h("dd", {}, validity(f) || "since it was said"),
        h("dt", {}, "stored"), h("dd", {}, when(f.created_at)),
        f.expired_at && [h("dt", {}, "superseded"), h("dd", {}, when(f.expired_at))],
        h("dt", {}, "said"), h("dd", {}, `${f.count}× (${day(f.first_seen)} – ${day(f.last_seen)})`),
        h("dt", {}, "confidence"), h("dd", {}, String(f.confidence)),
        f.extractor && [h("dt", {}, "extractor"), h("dd", {}, f.extractor)],
        h("dt", {}, "id"), h("dd", {}, h("code", {}, f.id))),
      h("h3", {}, "History"),
      h("ul", { class: "history" }, hist.map((e) => h("li", {},
        h("strong", {}, e.event), " ", h("span", { class: "meta" }, `${when(e.created_at)} by ${e.actor || "?"}`),
        e.old_memory && h("div", { class: "meta" }, "was: " + e.old_memory),
        e.new_memory && h("div", {}, e.new_memory),
        e.reason && h("div", { class: "meta" }, e.reason)))),
      h("h3", {}, "Source turns"), turns(sources));
  }

  // episodes fetches the episodes with these ids (at most 25), oldest first.
  async function episodes(ids) {
    const unique = [...new Set(ids || [])].slice(0, 25);
    const got = await Promise.all(unique.map((id) => api("GET", `/v1/memories/${encodeURIComponent(id)}?` + userQuery()).catch(() => null)));
    return got.filter((m) => m && m.episode).map((m) => m.episode).sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  }
  function turns(eps) {
    if (!eps.length) return h("p", { class: "muted" }, "none");
    return h("ul", { class: "turns" }, eps.map((e) => h("li", { "data-episode": e.id },
      h("div", { class: "meta" }, `${when(e.occurred_at)} · ${e.name || e.role}${e.source_id ? " · " + e.source_id : ""}`), e.content)));
  }

  // --- graph data: entities and facts as edges ----------------------------
  async function graphData() {
    const u = route().user;
    if (state.graph && state.graphUser === u) return state.graph;
    const g = await api("GET", `/v1/users/${encodeURIComponent(u)}/graph?limit=5000&include_invalidated=true`);
    state.graph = g; state.graphUser = u;
    return g;
  }
  const edgeEnded = (e) => !!(e.expired_at || (e.invalid_at && new Date(e.invalid_at) <= new Date()));

  async function loadEntities() {
    const g = await graphData();
    const degree = new Map();
    for (const e of g.edges) for (const id of [e.source, e.target]) if (id) degree.set(id, (degree.get(id) || 0) + 1);
    const body = clear($("entities-table").tBodies[0]);
    const ents = [...g.entities].sort((a, b) => (degree.get(b.id) || 0) - (degree.get(a.id) || 0) || a.name.localeCompare(b.name));
    for (const en of ents) {
      body.appendChild(h("tr", { "data-id": en.id, onclick: () => { go({ entity: en.id }); } },
        h("td", {}, en.name), h("td", {}, en.type), h("td", {}, (en.aliases || []).join(", ")), h("td", {}, en.mentions),
        h("td", {}, degree.get(en.id) || 0), h("td", { class: "date" }, day(en.first_seen)), h("td", { class: "date" }, day(en.last_seen))));
    }
    $("entities-count").textContent = `${ents.length} entities`;
    filterRows("entities");
  }

  async function showEntity(ref) {
    const g = await graphData();
    const en = g.entities.find((e) => e.id === ref) || g.entities.find((e) => e.name.toLowerCase() === ref.toLowerCase());
    if (!en) { status(`no entity ${ref} among the user's first ${g.entities.length}`, true); return; }
    state.selected = en.id;
    if (state.graphView) state.graphView.select(en.id);
    const facts = g.edges.filter((e) => e.source === en.id || e.target === en.id)
      .sort((a, b) => edgeEnded(a) - edgeEnded(b) || b.last_seen.localeCompare(a.last_seen));
    const sources = await episodes(facts.flatMap((f) => f.source_episode_ids || []));
    const body = panel();
    body.setAttribute("data-entity", en.name);
    body.append(
      h("h2", {}, en.name), h("span", { class: "badge current" }, en.type),
      h("dl", {},
        (en.aliases || []).length > 0 && [h("dt", {}, "aliases"), h("dd", {}, en.aliases.join(", "))],
        h("dt", {}, "mentions"), h("dd", {}, String(en.mentions)),
        h("dt", {}, "seen"), h("dd", {}, `${day(en.first_seen)} – ${day(en.last_seen)}`)),
      h("h3", {}, `Facts (${facts.length})`),
      h("ul", { class: "entity-facts" }, facts.map((f) => h("li", { "data-id": f.id },
        h("a", { href: "#", onclick: (ev) => { ev.preventDefault(); showFact(f.id).catch(failed); } }, f.fact), " ",
        h("span", { class: "badge " + (edgeEnded(f) ? "ended" : "current") }, edgeEnded(f) ? "ended" : "current"),
        h("div", { class: "meta" }, `${f.subject} · ${f.predicate} · ${f.object}${f.valid_at ? " · since " + day(f.valid_at) : ""}`)))),
      h("h3", {}, "Source turns"), turns(sources));
  }

  async function loadGraph() {
    const g = await graphData();
    const values = $("graph-values").checked, ended = $("graph-ended").checked;
    const nodes = g.entities.map((e) => ({ id: e.id, label: e.name, kind: e.type, entity: e }));
    const ids = new Set(nodes.map((n) => n.id));
    const links = [];
    for (const e of g.edges) {
      if (!ended && edgeEnded(e)) continue;
      let target = e.target;
      if (!target) {
        if (!values) continue;
        target = "value:" + e.object.toLowerCase();
        if (!ids.has(target)) { ids.add(target); nodes.push({ id: target, label: e.object, kind: "value" }); }
      }
      if (!ids.has(e.source) || !ids.has(target)) continue;
      links.push({ source: e.source, target, label: e.predicate, title: e.fact, ended: edgeEnded(e) });
    }
    const degree = new Map();
    for (const l of links) for (const id of [l.source, l.target]) degree.set(id, (degree.get(id) || 0) + 1);
    for (const n of nodes) n.r = 6 + Math.min(14, 2.5 * Math.sqrt(degree.get(n.id) || 0) * 2);
    $("graph-count").textContent = `${nodes.length} nodes, ${links.length} facts`;
    state.graphView = window.LoreGraph.render($("graph"), nodes, links, (n) => { if (n.entity) go({ entity: n.entity.id }); });
    if (state.selected) state.graphView.select(state.selected);
  }

  // --- episodes -----------------------------------------------------------
  function episodeDetail(e) {
    return h("div", {}, h("h2", {}, `${e.name || e.role} · ${when(e.occurred_at)}`), h("p", {}, e.content),
      h("dl", {}, e.source_id && [h("dt", {}, "source id"), h("dd", {}, e.source_id)], h("dt", {}, "stored"), h("dd", {}, when(e.created_at)),
        h("dt", {}, "id"), h("dd", {}, h("code", {}, e.id))));
  }
  async function loadEpisodes(more) {
    state.episodesPage = more ? state.episodesPage + 1 : 1;
    const list = $("episodes-list");
    if (!more) clear(list);
    const page = await api("GET", "/v1/memories?" + userQuery({ type: "episode", page: state.episodesPage, page_size: 100 }));
    for (const m of page.results) {
      const e = m.episode;
      list.appendChild(h("li", { "data-id": e.id, onclick: () => showEpisode(e).catch(failed) },
        h("div", { class: "meta" }, `${when(e.occurred_at)} · ${e.name || e.role}${e.source_id ? " · " + e.source_id : ""}`), e.content));
    }
    $("episodes-more").hidden = !page.has_more;
    $("episodes-count").textContent = `${list.children.length} episodes${page.has_more ? " (more below)" : ""}`;
  }
  async function showEpisode(e) {
    const g = await graphData();
    const facts = g.edges.filter((f) => (f.source_episode_ids || []).includes(e.id));
    const body = panel();
    body.append(episodeDetail(e), h("h3", {}, `Facts from this turn (${facts.length})`),
      h("ul", {}, facts.map((f) => h("li", {}, h("a", { href: "#", onclick: (ev) => { ev.preventDefault(); showFact(f.id).catch(failed); } }, f.fact)))));
  }

  // --- search -------------------------------------------------------------
  async function runSearch() {
    const r = route();
    if (!r.q) return;
    $("search-q").value = r.q;
    if (r.at) $("search-at").value = r.at;
    const req = { user_id: r.user, query: r.q, top_k: Number($("search-k").value) || 10, explain: true, include_invalidated: $("search-ended").checked };
    if (r.at) req.query_time = r.at + "T23:59:59Z";
    const res = await api("POST", "/v1/memories/search", req);
    const list = clear($("search-results"));
    const signals = new Set();
    let top = 0;
    for (const x of res.results) for (const k in x.score_details || {}) { signals.add(k); top = Math.max(top, x.score_details[k]); }
    $("search-legend").textContent = res.results.length
      ? `${res.results.length} results, ordered by fused score; bars are the per-signal scores (explain): ${[...signals].sort().join(", ")}`
      : "no results";
    res.results.forEach((x, i) => {
      const details = Object.entries(x.score_details || {}).sort((a, b) => b[1] - a[1]);
      list.appendChild(h("li", { class: "result", "data-id": x.id, "data-type": x.type },
        h("div", {}, h("span", { class: "score" }, `${i + 1}. ${x.score.toFixed(3)}`), " ", h("span", { class: "badge current" }, x.type), " ",
          x.type === "fact" ? h("a", { href: "#", onclick: (ev) => { ev.preventDefault(); showFact(x.id).catch(failed); } }, x.memory) : x.memory),
        x.fact && h("div", { class: "meta" }, `${x.fact.subject} · ${x.fact.predicate} · ${x.fact.object} · ${validity(x.fact) || "since " + day(x.fact.first_seen)}`),
        h("div", { class: "bars" }, details.map(([k, v]) => [h("span", { class: "signal" }, k),
          h("div", {}, (() => { const b = h("div", { class: "bar" }); b.style.width = (top > 0 ? (100 * v) / top : 0) + "%"; return b; })()),
          h("span", { class: "meta" }, v.toFixed(3))])),
        (x.sources || []).length > 0 && h("details", {}, h("summary", { class: "meta" }, `${x.sources.length} source turn(s)`),
          h("ul", {}, x.sources.map((s) => h("li", {}, h("span", { class: "meta" }, when(s.occurred_at) + " "), s.content)))),
        feedbackButtons(x, r)));
    });
    $("search-context-box").hidden = !res.context;
    $("search-context").textContent = res.context || "";
  }

  // --- feedback -----------------------------------------------------------
  // Lore's API records verdicts (POST /v1/memories/{id}/feedback) and resets
  // them (DELETE /v1/users/{id}/feedback) but has no route that lists them,
  // so the page keeps the answers to the verdicts it sent, per user, in this
  // tab's sessionStorage.
  const verdictsKey = (user) => "lore.verdicts." + (key() ? "key" : tenant() || "default") + "." + user;
  const verdicts = (user) => JSON.parse(sessionStorage.getItem(verdictsKey(user)) || "[]");
  const signed = (v) => (v >= 0 ? "+" : "−") + Math.abs(v).toFixed(2);

  function feedbackButtons(x, r) {
    const out = h("span", { class: "relevance meta" });
    const rate = async (helpful) => {
      const ans = await api("POST", `/v1/memories/${encodeURIComponent(x.id)}/feedback`, { user_id: r.user, helpful, query: r.q });
      out.textContent = `relevance ${ans.new_relevance.toFixed(2)} (${signed(ans.delta_applied)})`;
      out.setAttribute("data-relevance", String(ans.new_relevance));
      const list = verdicts(r.user);
      list.unshift({ at: new Date().toISOString(), memory: x.memory, query: r.q, ...ans });
      sessionStorage.setItem(verdictsKey(r.user), JSON.stringify(list.slice(0, 200)));
      status(`${helpful ? "helpful" : "not helpful"}: relevance of this memory is now ${ans.new_relevance.toFixed(2)}`);
    };
    return h("div", { class: "feedback" },
      h("button", { type: "button", class: "helpful", title: "This result helped: raise its relevance", onclick: () => rate(true).catch(failed) }, "▲ helpful"),
      h("button", { type: "button", class: "unhelpful", title: "This result did not help: lower its relevance", onclick: () => rate(false).catch(failed) }, "▼ not helpful"),
      out);
  }

  function loadFeedback() {
    const body = clear($("feedback-table").tBodies[0]);
    const list = verdicts(route().user);
    for (const v of list) {
      body.appendChild(h("tr", { "data-id": v.memory_id, onclick: () => showFact(v.memory_id).catch(failed) },
        h("td", { class: "date" }, when(v.at)), h("td", {}, v.memory || v.memory_id),
        h("td", {}, h("span", { class: "badge " + (v.helpful ? "current" : "ended") }, v.helpful ? "helpful" : "not helpful")),
        h("td", {}, signed(v.delta_applied)), h("td", { class: "num" }, v.new_relevance.toFixed(2)),
        h("td", { class: "meta" }, v.query || ""), h("td", {}, h("code", {}, v.event_id))));
    }
    if (!list.length) body.appendChild(h("tr", {}, h("td", { colspan: 7, class: "muted" }, "No verdicts from this tab yet.")));
  }

  // resetFeedback asks for a second click (armed for 5 s) before it
  // removes the user's verdicts: no modal dialog.
  let resetArmed = "";
  async function resetFeedback() {
    const u = route().user;
    const b = $("feedback-reset");
    if (resetArmed !== u) {
      resetArmed = u;
      b.textContent = `Click again to remove every verdict of ${u}`;
      b.classList.add("armed");
      setTimeout(() => { resetArmed = ""; b.textContent = "Reset this user's feedback"; b.classList.remove("armed"); }, 5000);
      return;
    }
    resetArmed = "";
    b.textContent = "Reset this user's feedback";
    b.classList.remove("armed");
    const ans = await api("DELETE", `/v1/users/${encodeURIComponent(u)}/feedback`);
    sessionStorage.removeItem(verdictsKey(u));
    $("feedback-reset-result").textContent = `removed ${ans.deleted} verdict(s) of ${u}`;
    loadFeedback();
  }

  // --- profile ------------------------------------------------------------
  // evidenceTexts fetches the memories that profile entries cite (at most
  // 50), as id → text; a query's hash stays a hash (Lore keeps no query).
  async function evidenceTexts(entries) {
    const ids = [...new Set(entries.flatMap((e) => e.evidence || []).filter((id) => !id.startsWith("query:")))].slice(0, 50);
    const got = await Promise.all(ids.map((id) => api("GET", `/v1/memories/${encodeURIComponent(id)}?` + userQuery()).catch(() => null)));
    const texts = new Map();
    got.forEach((m, i) => { if (m) texts.set(ids[i], m.episode ? m.episode.content : m.fact ? m.fact.fact : m.memory || ""); });
    return texts;
  }
  function evidenceList(e, texts) {
    return h("ul", { class: "evidence" }, (e.evidence || []).map((id) => {
      if (id.startsWith("query:")) return h("li", { class: "meta", title: id }, `a search (query hash ${id.slice(6, 14)}…)`);
      const text = texts.get(id);
      return h("li", {}, h("a", { href: "#", title: id, onclick: (ev) => { ev.preventDefault(); showFact(id).catch(failed); } }, text || id));
    }));
  }
  function profileRow(e, texts, replaced) {
    const conf = h("div", { class: "bar" });
    conf.style.width = Math.round(100 * Math.max(0, Math.min(1, e.confidence))) + "%";
    return h("tr", { class: replaced ? "ended" : "", "data-key": e.key, "data-source": e.source },
      h("td", {}, h("code", {}, e.key)), h("td", { class: "value" }, e.value),
      h("td", {}, h("span", { class: "badge " + (e.source === "explicit" ? "explicit" : "inferred") }, e.source)),
      h("td", { class: "confidence" }, h("div", { class: "conf" }, conf), h("span", { class: "meta" }, e.confidence.toFixed(2))),
      h("td", {}, evidenceList(e, texts)), h("td", { class: "date" }, when(e.updated_at)),
      replaced && h("td", { class: "date" }, when(e.replaced_at)));
  }
  async function loadProfile() {
    const u = route().user;
    const withHistory = $("profile-history").checked;
    const view = await api("GET", `/v1/users/${encodeURIComponent(u)}/profile${withHistory ? "?history=true" : ""}`);
    const hist = view.history || [];
    const texts = await evidenceTexts(view.entries.concat(hist));
    if (u !== route().user) return;
    const body = clear($("profile-table").tBodies[0]);
    for (const e of view.entries) body.appendChild(profileRow(e, texts, false));
    if (!view.entries.length) body.appendChild(h("tr", {}, h("td", { colspan: 6, class: "muted" }, "No profile entries yet: Lore fills the profile from what the user says and searches.")));
    const explicit = view.entries.filter((e) => e.source === "explicit").length;
    $("profile-count").textContent = `${view.entries.length} entries (${explicit} explicit, ${view.entries.length - explicit} inferred)`;
    const hbody = clear($("profile-history-table").tBodies[0]);
    for (const e of hist) hbody.appendChild(profileRow(e, texts, true));
    $("profile-history-table").hidden = $("profile-history-title").hidden = !withHistory;
    if (withHistory && !hist.length) hbody.appendChild(h("tr", {}, h("td", { colspan: 7, class: "muted" }, "none")));
  }

  // --- shell --------------------------------------------------------------
  function panel() {
    $("panel").hidden = false;
    return clear($("panel-body"));
  }
  function filterRows(kind) {
    const q = $(kind + "-filter").value.toLowerCase();
    let shown = 0;
    for (const tr of $(kind + "-table").tBodies[0].rows) {
      const hit = !q || tr.textContent.toLowerCase().includes(q);
      tr.hidden = !hit;
      shown += hit ? 1 : 0;
    }
    if (kind === "facts") $("facts-count").textContent = `${shown} facts`;
  }
  function remember(user) {
    const recent = JSON.parse(localStorage.getItem("lore.recentUsers") || "[]").filter((u) => u !== user);
    recent.unshift(user);
    localStorage.setItem("lore.recentUsers", JSON.stringify(recent.slice(0, 20)));
    fillRecent();
  }
  function fillRecent() {
    const dl = clear($("recent-users"));
    for (const u of JSON.parse(localStorage.getItem("lore.recentUsers") || "[]")) dl.appendChild(h("option", { value: u }));
  }

  let loaded = "";
  async function show() {
    const r = route();
    $("user").value = r.user;
    for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.view === r.view);
    for (const s of document.querySelectorAll(".view")) s.hidden = s.id !== "view-" + r.view;
    if (!r.user) { status("Pick a user: Lore lists no users, so type the id your application uses."); return; }
    if (state.graphUser !== r.user) { state.graph = null; state.graphView = null; state.selected = ""; $("panel").hidden = true; }
    const what = `${r.user}|${r.view}|${r.q}|${r.at}`;
    try {
      if (what !== loaded) {
        status("loading…");
        loaded = what;
        if (r.view === "facts") await loadFacts(false);
        else if (r.view === "entities") await loadEntities();
        else if (r.view === "episodes") await loadEpisodes(false);
        else if (r.view === "graph") await loadGraph();
        else if (r.view === "search") await runSearch();
        else if (r.view === "profile") await loadProfile();
        else if (r.view === "feedback") loadFeedback();
      }
      if (r.entity && r.entity !== state.selected) await showEntity(r.entity);
      status(`${r.user}${key() ? "" : tenant() ? " in " + tenant() + " (no key)" : " (no key)"}`);
      document.body.setAttribute("data-ready", r.view);
    } catch (err) {
      loaded = "";
      failed(err);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    fillRecent();
    $("key").value = key() ? "••••••••" : "";
    $("tenant").value = tenant();
    $("connect").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const k = $("key").value.trim();
      if (k && !k.startsWith("•")) sessionStorage.setItem("lore.key", k);
      if (!k) sessionStorage.removeItem("lore.key");
      $("key").value = key() ? "••••••••" : "";
      sessionStorage.setItem("lore.tenant", $("tenant").value.trim());
      const u = $("user").value.trim();
      if (!u) return;
      remember(u);
      loaded = ""; state.graph = null;
      if (route().user === u) show(); else go({ user: u, entity: "", q: "" });
    });
    $("forget").addEventListener("click", () => { sessionStorage.removeItem("lore.key"); $("key").value = ""; status("key forgotten"); });
    for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => go({ view: b.dataset.view }));
    $("panel-close").addEventListener("click", () => { $("panel").hidden = true; state.selected = ""; if (state.graphView) state.graphView.select(""); go({ entity: "" }); });
    $("facts-ended").addEventListener("change", () => loadFacts(false).catch(failed));
    $("facts-more").addEventListener("click", () => loadFacts(true).catch(failed));
    $("episodes-more").addEventListener("click", () => loadEpisodes(true).catch(failed));
    $("facts-filter").addEventListener("input", () => filterRows("facts"));
    $("entities-filter").addEventListener("input", () => filterRows("entities"));
    $("graph-values").addEventListener("change", () => loadGraph().catch(failed));
    $("graph-ended").addEventListener("change", () => loadGraph().catch(failed));
    $("profile-history").addEventListener("change", () => loadProfile().catch(failed));
    $("feedback-reset").addEventListener("click", () => resetFeedback().catch(failed));
    $("feedback-to-search").addEventListener("click", (ev) => { ev.preventDefault(); go({ view: "search" }); });
    $("search-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      loaded = "";
      go({ view: "search", q: $("search-q").value.trim(), at: $("search-at").value });
      if (route().q === $("search-q").value.trim()) show();
    });
    window.addEventListener("hashchange", show);
    show();
  });
})();
