// The student page's script: it follows the class on the server's event
// stream and posts answers without leaving the page. Every string it
// shows comes from the scenario, which the page does not trust, so it
// only ever sets textContent and builds elements; never markup.
"use strict";
(function () {
  var byId = function (id) { return document.getElementById(id); };
  var shown = {}; // what each section last showed, to leave it alone when unchanged
  var sending = false;
  var latest = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // changed reports whether a section's content differs from what it
  // shows: rebuilding the question under a finger would lose the tap.
  function changed(name, value) {
    var key = JSON.stringify(value);
    if (shown[name] === key) return false;
    shown[name] = key;
    return true;
  }

  function choiceClass(q, mine, n) {
    var cl = [];
    if (n === mine) cl.push("mine");
    if (q.answer > 0 && n === q.answer) cl.push("right");
    else if (q.answer > 0 && n === mine) cl.push("wrong");
    return cl.join(" ");
  }

  function renderQuestion(q, mine, status) {
    var sec = byId("question");
    if (!changed("question", [q, mine, status, sending])) return;
    if (!q) {
      sec.hidden = true;
      sec.replaceChildren();
      return;
    }
    var form = el("form");
    form.id = "answer";
    form.method = "post";
    form.action = "/answer";
    var hq = el("input");
    hq.type = "hidden";
    hq.name = "q";
    hq.value = String(q.n);
    form.append(hq);
    q.choices.forEach(function (c, i) {
      var n = i + 1;
      var b = el("button", choiceClass(q, mine, n));
      b.type = "submit";
      b.name = "choice";
      b.value = String(n);
      b.disabled = mine > 0 || q.answer > 0 || sending;
      b.append(el("span", "num", String(n)), el("span", "choice", c));
      form.append(b);
    });
    var st = el("p", "status", status);
    st.id = "status";
    sec.replaceChildren(el("h2", "", "Question " + q.n), el("p", "qtext", q.text), form, st);
    (q.why || []).forEach(function (w) { sec.append(el("p", "why", w)); });
    sec.hidden = false;
  }

  function renderLast(q, status) {
    var sec = byId("last");
    if (!changed("last", [q, status])) return;
    if (!q) {
      sec.hidden = true;
      sec.replaceChildren();
      return;
    }
    sec.replaceChildren(el("h2", "", "Question " + q.n + ", answered"), el("p", "qtext", q.text), el("p", "status", status));
    (q.why || []).forEach(function (w) { sec.append(el("p", "why", w)); });
    sec.hidden = false;
  }

  function renderProcs(st) {
    if (!changed("procs", [st.procs, st.more])) return;
    var rows = [];
    (st.procs || []).forEach(function (p) {
      var tr = el("tr");
      tr.append(el("th", "", p.p));
      [p.state, p.m, p.g, p.next].forEach(function (v) { tr.append(el("td", "", v)); });
      var ring = el("tr", "ring");
      var td = el("td", "", "ring: " + p.ring);
      td.colSpan = 5;
      ring.append(td);
      rows.push(tr, ring);
    });
    var body = byId("procs").tBodies[0];
    body.replaceChildren.apply(body, rows);
    var more = byId("more");
    more.hidden = !st.more;
    more.textContent = "and " + st.more + " more Ps";
  }

  // The timeline is an image the server keeps: load a new version only
  // when the last one has loaded, at most one a second.
  var img = { loading: false, want: 0, have: 0 };
  function renderTimeline(v) {
    byId("timelinecard").hidden = !v;
    img.want = v;
    loadTimeline();
  }
  function loadTimeline() {
    if (img.loading || !img.want || img.want === img.have) return;
    img.loading = true;
    var v = img.want;
    var done = function () {
      img.have = v;
      setTimeout(function () { img.loading = false; loadTimeline(); }, 1000);
    };
    var t = byId("timeline");
    t.onload = done;
    t.onerror = done;
    t.src = "/timeline.svg?v=" + v;
  }

  function render(msg) {
    if (latest && msg.v < latest.v) return;
    latest = msg;
    var st = msg.state;
    document.title = st.title + " · schedlab class";
    byId("title").textContent = st.title;
    byId("event").textContent = st.event;
    var note = byId("note");
    note.textContent = st.note;
    note.hidden = !st.note;
    byId("queues").textContent = st.queues;
    renderQuestion(st.question, msg.mine, msg.status);
    renderLast(st.last, msg.statusLast);
    renderProcs(st);
    renderTimeline(st.timeline);
  }

  function setConn(text) { byId("conn").textContent = text; }

  // refresh reads the state once: after an answer (the stream sends only
  // what changes for everyone), and when the stream is blocked.
  function refresh() {
    return fetch("/state", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(render)
      .catch(function () { setConn("Lost the class: reload the page."); });
  }

  var polling = null;
  function poll() {
    if (polling) return;
    setConn("Live updates are blocked here: the page asks every 3 seconds.");
    polling = setInterval(refresh, 3000);
    refresh();
  }

  function connect() {
    if (!window.EventSource) {
      poll();
      return;
    }
    var es = new EventSource("/events");
    var errors = 0;
    es.onopen = function () { setConn("Live."); };
    es.onmessage = function (e) {
      errors = 0;
      setConn("Live.");
      render(JSON.parse(e.data));
    };
    es.onerror = function () {
      errors++;
      setConn("Reconnecting…");
      if (es.readyState === EventSource.CLOSED || errors >= 3) {
        es.close();
        poll();
      }
    };
  }

  var clicked = null; // the choice tapped, for browsers without submitter
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("button[name=choice]");
    if (b) clicked = b;
  });
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.id !== "answer") return;
    e.preventDefault();
    var b = e.submitter || clicked;
    if (!b || b.name !== "choice" || sending) return;
    var body = new URLSearchParams();
    body.set("q", form.elements.q.value);
    body.set("choice", b.value);
    sending = true;
    form.querySelectorAll("button").forEach(function (x) { x.disabled = true; });
    byId("status").textContent = "Sending…";
    fetch("/answer", { method: "POST", body: body, credentials: "same-origin" })
      .then(function (r) {
        sending = false;
        shown.question = null;
        if (r.status === 204 || r.status === 409) return refresh();
        if (latest) render(latest);
        byId("status").textContent = r.status === 429 ? "Too fast: try again in a moment." : "Not recorded (" + r.status + "): try again.";
      })
      .catch(function () {
        sending = false;
        shown.question = null;
        if (latest) render(latest);
        byId("status").textContent = "Not sent: check the connection and try again.";
      });
  });

  connect();
})();
