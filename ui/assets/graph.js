// graph.js — a small force-directed layout and its SVG view, written for
// Lore's inspector. Nodes repel each other (inverse square), links pull
// their ends toward a rest length (springs), a weak pull keeps everything
// near the centre, and velocities are damped while a "temperature" cools, so
// the layout settles. Start positions are deterministic (a golden-angle
// spiral), so the same graph always lands the same way.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";

  // layout moves nodes ({id, x, y}) for the links ({source, target} ids),
  // in place, for the given number of steps.
  function layout(nodes, links, steps, opts) {
    const o = Object.assign({ repulsion: 6000, spring: 0.04, rest: 100, gravity: 0.012, damping: 0.82 }, opts || {});
    const byId = new Map(nodes.map((n) => [n.id, n]));
    nodes.forEach((n, i) => {
      if (n.x === undefined) {
        const r = 14 * Math.sqrt(i + 1), a = i * 2.39996; // golden angle
        n.x = r * Math.cos(a); n.y = r * Math.sin(a);
      }
      n.vx = n.vx || 0; n.vy = n.vy || 0;
    });
    const pairs = links.map((l) => [byId.get(l.source), byId.get(l.target)]).filter((p) => p[0] && p[1] && p[0] !== p[1]);
    for (let step = 0; step < steps; step++) {
      const heat = 1 - step / steps;
      for (let i = 0; i < nodes.length; i++) {
        const a = nodes[i];
        for (let j = i + 1; j < nodes.length; j++) {
          const b = nodes[j];
          let dx = a.x - b.x, dy = a.y - b.y;
          let d2 = dx * dx + dy * dy;
          if (d2 < 0.01) { dx = (i - j) * 0.1; dy = 0.1; d2 = dx * dx + dy * dy; }
          const f = o.repulsion / d2, d = Math.sqrt(d2);
          const fx = (dx / d) * f, fy = (dy / d) * f;
          a.vx += fx; a.vy += fy; b.vx -= fx; b.vy -= fy;
        }
      }
      for (const [a, b] of pairs) {
        const dx = b.x - a.x, dy = b.y - a.y;
        const d = Math.sqrt(dx * dx + dy * dy) || 0.01;
        const f = o.spring * (d - o.rest);
        const fx = (dx / d) * f, fy = (dy / d) * f;
        a.vx += fx; a.vy += fy; b.vx -= fx; b.vy -= fy;
      }
      for (const n of nodes) {
        n.vx = (n.vx - n.x * o.gravity) * o.damping;
        n.vy = (n.vy - n.y * o.gravity) * o.damping;
        if (n.fixed) { n.vx = 0; n.vy = 0; continue; }
        const cap = 30 * heat + 1; // the temperature bounds a step
        const v = Math.hypot(n.vx, n.vy);
        if (v > cap) { n.vx *= cap / v; n.vy *= cap / v; }
        n.x += n.vx; n.y += n.vy;
      }
    }
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  // render draws the graph into svg and wires dragging, panning, zooming
  // and clicks (onSelect(node)). nodes: {id, label, kind, r}; links:
  // {source, target, label, ended}.
  function render(svg, nodes, links, onSelect) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    layout(nodes, links, 300);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const view = { x: 0, y: 0, w: 0, h: 0 };
    const fit = () => {
      const xs = nodes.map((n) => n.x), ys = nodes.map((n) => n.y);
      const pad = 50;
      view.x = Math.min(...xs) - pad; view.y = Math.min(...ys) - pad;
      view.w = Math.max(...xs) + 4 * pad - view.x; view.h = Math.max(...ys) + pad - view.y;
      // A small graph is not blown up: at most 1.6 screen pixels a unit.
      const box = svg.getBoundingClientRect(), most = 1.6;
      if (box.width > 0 && view.w < box.width / most) { view.x -= (box.width / most - view.w) / 2; view.w = box.width / most; }
      if (box.height > 0 && view.h < box.height / most) { view.y -= (box.height / most - view.h) / 2; view.h = box.height / most; }
      setView();
    };
    const setView = () => svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
    const gLinks = el("g", { class: "links" }, svg);
    const gNodes = el("g", { class: "nodes" }, svg);
    const linkEls = links.filter((l) => byId.has(l.source) && byId.has(l.target)).map((l) => {
      const g = el("g", {}, gLinks);
      const line = el("line", { class: "link" + (l.ended ? " ended" : "") }, g);
      const t = el("text", { class: "link-label", "text-anchor": "middle" }, g);
      t.textContent = l.label || "";
      const title = el("title", {}, line);
      title.textContent = l.title || l.label || "";
      return { l, line, t };
    });
    const nodeEls = nodes.map((n) => {
      const g = el("g", { class: "node " + (n.kind || ""), "data-id": n.id, "data-label": n.label }, gNodes);
      el("circle", { r: n.r || 8 }, g);
      const t = el("text", { x: (n.r || 8) + 4, y: 4 }, g);
      t.textContent = n.label;
      n.el = g;
      return { n, g };
    });
    const draw = () => {
      for (const { l, line, t } of linkEls) {
        const a = byId.get(l.source), b = byId.get(l.target);
        line.setAttribute("x1", a.x); line.setAttribute("y1", a.y);
        line.setAttribute("x2", b.x); line.setAttribute("y2", b.y);
        t.setAttribute("x", (a.x + b.x) / 2); t.setAttribute("y", (a.y + b.y) / 2 - 3);
      }
      for (const { n, g } of nodeEls) g.setAttribute("transform", `translate(${n.x},${n.y})`);
    };
    draw();
    fit();
    // Until the user moves the view, it follows the element's size (the
    // side panel opening narrows it).
    let touched = false;
    if (svg.loreResize) svg.loreResize.disconnect(); // the previous drawing's
    if (window.ResizeObserver) {
      svg.loreResize = new ResizeObserver(() => { if (!touched) fit(); });
      svg.loreResize.observe(svg);
    }

    // Pointer handling: a node drags, the background pans; a click without
    // movement selects.
    // toGraph maps a pointer to graph coordinates through the SVG's own
    // transform, which accounts for the letterboxing of the viewBox.
    const toGraph = (ev) => {
      const m = svg.getScreenCTM();
      if (!m) return { x: 0, y: 0 };
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
      return { x: p.x, y: p.y };
    };
    let drag = null;
    svg.onpointerdown = (ev) => {
      const g = ev.target.closest && ev.target.closest(".node");
      const p = toGraph(ev);
      drag = { node: g ? byId.get(g.getAttribute("data-id")) : null, start: p, moved: false, view: Object.assign({}, view), cx: ev.clientX, cy: ev.clientY, scale: (svg.getScreenCTM() || { a: 1 }).a };
      svg.setPointerCapture(ev.pointerId);
    };
    svg.onpointermove = (ev) => {
      if (!drag) return;
      if (Math.abs(ev.clientX - drag.cx) + Math.abs(ev.clientY - drag.cy) > 3) drag.moved = true;
      if (!drag.moved) return;
      touched = true;
      if (drag.node) {
        const p = toGraph(ev);
        drag.node.x = p.x; drag.node.y = p.y; drag.node.fixed = true;
        layout(nodes, links, 3);
        draw();
      } else {
        view.x = drag.view.x - (ev.clientX - drag.cx) / drag.scale;
        view.y = drag.view.y - (ev.clientY - drag.cy) / drag.scale;
        setView();
      }
    };
    svg.onpointerup = () => {
      if (drag && !drag.moved && drag.node && onSelect) onSelect(drag.node);
      drag = null;
    };
    svg.onwheel = (ev) => {
      ev.preventDefault();
      touched = true;
      const p = toGraph(ev), k = ev.deltaY > 0 ? 1.15 : 1 / 1.15;
      view.x = p.x - (p.x - view.x) * k; view.y = p.y - (p.y - view.y) * k;
      view.w *= k; view.h *= k;
      setView();
    };
    return {
      select(id) {
        for (const { n, g } of nodeEls) g.classList.toggle("selected", n.id === id);
      },
    };
  }

  window.LoreGraph = { layout, render };
})();
