/* The Atlandice table companion: the page's one script.
 *
 * ES5 on purpose (old tablets): no modules, no arrow functions, no fetch.
 * The server renders every piece of the table (GET /live); this script
 * listens to the live stream (GET /api/events), swaps the fresh table in,
 * and sends taps to the JSON API with the game version the page shows, so a
 * tap made against an older state is refused (409) and never applied twice.
 */
(function () {
  "use strict";

  var body = document.body;
  var lang = body.getAttribute("data-lang") || "en";
  var page = body.getAttribute("data-page");
  var busy = false;            // one request at a time from this page
  var sentOn = null;           // the version the request in flight was made on
  var nextSend = null;         // [url, data, after]: a tap made on a newer table meanwhile
  var refreshing = false, refreshAgain = false;
  var diceSelected = -1;       // the slot being corrected (the dice themselves are the server's proposal)
  var diceQueue = [];          // dice taps not yet sent, in the order tapped
  var diceSending = false;
  var acted = false;           // this page sent the last input: follow it to the new prompt
  // A prompt that has just changed under a finger ignores taps for a moment (visibly: #live.held),
  // and a tap carries the prompt its press began on, so one meant for the old prompt is refused.
  var HOLD_MS = 700;
  var heldUntil = 0, holdTimer = null;
  var pressed = null;          // {version, prompt, at}: the prompt shown when the finger went down

  function $(id) { return document.getElementById(id); }

  function closest(el, test) {
    while (el && el !== document) {
      if (el.nodeType === 1 && test(el)) { return el; }
      el = el.parentNode;
    }
    return null;
  }

  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  function toast(text, kind) {
    var el = $("toast");
    if (!el) { return; }
    el.className = "toast " + (kind || "error");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { el.hidden = true; }, kind === "ok" ? 2500 : 8000);
  }

  function request(method, url, data, done, contentType) {
    var xhr = new XMLHttpRequest();
    xhr.open(method, url, true);
    xhr.setRequestHeader("X-Requested-With", "XMLHttpRequest");
    xhr.setRequestHeader("X-CSRF-Token", csrf());
    xhr.setRequestHeader("Accept", "application/json");
    var payload = null;
    if (data !== null && data !== undefined) {
      if (contentType) {
        xhr.setRequestHeader("Content-Type", contentType);
        payload = data;
      } else {
        xhr.setRequestHeader("Content-Type", "application/json");
        payload = JSON.stringify(data);
      }
    }
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4) { return; }
      var reply = null;
      try { reply = JSON.parse(xhr.responseText); } catch (e) { reply = null; }
      done(xhr.status, reply, xhr);
    };
    xhr.send(payload);
  }

  function refused(status, reply) {
    if (status === 0) { toast(body.getAttribute("data-t-network")); return; }
    if (reply && reply.error === "stale") { toast(body.getAttribute("data-t-stale"), "info"); return; }
    var text = body.getAttribute("data-t-refused") + " " + (reply && reply.message ? reply.message : status);
    if (reply && reply.rule) { text += " (" + reply.rule + ")"; }
    toast(text);
  }

  function liveVersion() {
    var live = $("live");
    if (!live) { return null; }
    var v = live.getAttribute("data-version");
    return v === "" || v === null ? null : parseInt(v, 10);
  }

  function livePrompt() {
    var live = $("live");
    var p = live ? live.getAttribute("data-prompt") : null;
    return p === "" || p === null ? null : parseInt(p, 10);
  }

  // The prompt a tap was chosen on: the one shown when its press began (a tablet's finger may
  // come down on one prompt and up on the next), else the one shown now (a key, a click).
  function chosenOn() {
    var p = pressed;
    pressed = null;
    if (p && new Date().getTime() - p.at < 3000) { return p; }
    return {version: liveVersion(), prompt: livePrompt()};
  }

  function stamp(data, on) {
    data.version = on.version;
    if (on.prompt !== null) { data.prompt = on.prompt; }
    return data;
  }

  function notePress() {
    pressed = {version: liveVersion(), prompt: livePrompt(), at: new Date().getTime()};
  }

  function isHeld() { return new Date().getTime() < heldUntil; }

  // What a changed prompt holds back: its own choices and CONFIRM (UNDO, REDO, READ stay).
  function holdable(live) {
    return live.querySelectorAll ? live.querySelectorAll("#prompt button, #panel [data-button=confirm]") : [];
  }

  function hold(live, fresh) {
    if (fresh) { heldUntil = new Date().getTime() + HOLD_MS; }
    if (live.className.indexOf("held") < 0) { live.className += " held"; }
    live.setAttribute("aria-busy", "true");
    var els = holdable(live);
    for (var i = 0; i < els.length; i++) { els[i].setAttribute("aria-disabled", "true"); }
    clearTimeout(holdTimer);
    holdTimer = setTimeout(release, Math.max(0, heldUntil - new Date().getTime()));
  }

  function release() {
    var live = $("live");
    heldUntil = 0;
    if (!live) { return; }
    live.className = live.className.replace(/\s*\bheld\b/g, "");
    live.removeAttribute("aria-busy");
    var els = holdable(live);
    for (var i = 0; i < els.length; i++) { els[i].removeAttribute("aria-disabled"); }
  }

  // A tap on a held prompt: ignored, and the prompt says so by blinking its hold again.
  function ignoredTap(e) {
    e.preventDefault();
    var live = $("live");
    if (live) {
      live.className = live.className.replace(/\s*\bheld-tap\b/g, "");
      void live.offsetWidth;
      live.className += " held-tap";
    }
  }

  /* --- the live table ------------------------------------------------------ */

  function swapIn(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector ? holder.querySelector("#live") : holder.firstChild;
    var old = $("live");
    // Never step back: a slow answer must not replace a newer table already shown. A table
    // from another run of the companion (restarted: its count began again) always replaces it.
    var restarted = fresh && old && fresh.getAttribute("data-boot") !== old.getAttribute("data-boot");
    if (fresh && old && (restarted || parseInt(fresh.getAttribute("data-change"), 10) >= parseInt(old.getAttribute("data-change"), 10))) {
      var moved = fresh.getAttribute("data-version") !== old.getAttribute("data-version");
      var changed = moved || fresh.getAttribute("data-prompt") !== old.getAttribute("data-prompt");
      var focus = focusedIn(old);
      keepOpen(old, fresh);
      var scrolled = scrolledIn(old);
      old.parentNode.replaceChild(fresh, old);
      keepScrolled(fresh, scrolled, changed);
      if (changed) { diceSelected = -1; diceQueue = []; }
      if (changed && !restarted) { hold(fresh, true); } else if (isHeld()) { hold(fresh, false); }
      setupDiceEntry();
      if (focus !== null || acted) { refocus(moved ? null : focus, moved); }
      if (moved) { acted = false; }
    }
  }

  // The folded history stays as this page left it when the table is redrawn.
  function keepOpen(old, fresh) {
    var open = old.querySelectorAll ? old.querySelectorAll("details[open][id]") : [];
    for (var i = 0; i < open.length; i++) {
      var same = fresh.querySelector("#" + open[i].id);
      if (same) { same.open = true; }
    }
  }

  // The parts that scroll on their own stay where the reader left them when the table is
  // redrawn: the board's column always, the prompt's column, the prompt and the final card while
  // the step is the same (a new step shows its prompt from the top). A picture still loading
  // may have cut a part short: set again when it comes, unless the reader scrolled meanwhile.
  var SCROLLS = [".col-table", ".col-act", "#final", "#prompt"];

  function scrolledIn(live) {
    var at = [];
    for (var i = 0; i < SCROLLS.length; i++) {
      var el = live.querySelector ? live.querySelector(SCROLLS[i]) : null;
      at.push(el ? el.scrollTop : 0);
    }
    return at;
  }

  function keepScrolled(live, at, changed) {
    var short = [];
    for (var i = changed ? 1 : SCROLLS.length; i-- > 0;) {
      var el = at[i] && live.querySelector ? live.querySelector(SCROLLS[i]) : null;
      if (!el) { continue; }
      el.scrollTop = at[i];
      if (el.scrollTop < at[i]) { short.push([el, at[i], el.scrollTop]); }
    }
    var imgs = short.length && live.querySelectorAll ? live.querySelectorAll("img") : [];
    for (var k = 0; k < imgs.length; k++) {
      if (!imgs[k].complete) {
        imgs[k].addEventListener("load", function () {
          for (var j = 0; j < short.length; j++) {
            if (short[j][0].scrollTop === short[j][2]) { short[j][0].scrollTop = short[j][1]; short[j][2] = short[j][0].scrollTop; }
          }
        });
      }
    }
  }

  // What had focus inside the live part, said so that its redrawn twin can be found.
  function focusedIn(live) {
    var el = document.activeElement;
    if (!el || el === body || !closest(el, function (x) { return x === live; })) { return null; }
    var names = ["id", "data-button", "data-input", "data-face", "data-slot", "data-dismiss"];
    for (var i = 0; i < names.length; i++) {
      if (el.getAttribute(names[i]) !== null) {
        return "[" + names[i] + "='" + el.getAttribute(names[i]).replace(/'/g, "\\'") + "']";
      }
    }
    return "#prompt";
  }

  // After a change, focus goes on: to the new prompt's first choice when the game moved on,
  // else back to the button pressed, so that a keyboard never falls back to the top of the page.
  function refocus(selector, moved) {
    var target = null;
    if (selector) { target = document.querySelector("#live " + selector); }
    if (!target || target.disabled) {
      target = document.querySelector("#prompt [data-input], #prompt #dice-entry [data-face]") ||
        (moved ? null : document.querySelector("#panel [data-button]:not([disabled])")) || $("prompt");
    }
    if (!target) { return; }
    try { target.focus({preventScroll: true}); } catch (e) { target.focus(); }
    var prompt = $("prompt");
    if (prompt && prompt.getBoundingClientRect) {
      var top = prompt.getBoundingClientRect().top;
      // the prompt scrolled away (a phone, one column): bring it back under the eyes
      if (top < 0 || top > window.innerHeight / 2) { prompt.scrollIntoView(true); }
    }
  }

  function refresh() {
    if (!$("live")) { return; }
    if (refreshing) { refreshAgain = true; return; }
    refreshing = true;
    var xhr = new XMLHttpRequest();
    xhr.open("GET", "/live?lang=" + encodeURIComponent(lang) + "&_=" + new Date().getTime(), true);
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4) { return; }
      refreshing = false;
      if (xhr.status === 200) { swapIn(xhr.responseText); }
      if (refreshAgain) { refreshAgain = false; refresh(); }
    };
    xhr.send(null);
  }

  function setOnline(online) {
    var el = $("conn");
    if (!el) { return; }
    el.textContent = el.getAttribute(online ? "data-online" : "data-offline");
    el.className = "conn " + (online ? "online" : "offline");
    if (online) { body.className = body.className.replace(/\s*is-offline/g, ""); }
    else if (body.className.indexOf("is-offline") < 0) { body.className += " is-offline"; }
  }

  var retryDelay = 2000;

  function connect() {
    if (!window.EventSource) {
      setOnline(true);
      setInterval(refresh, 2000);   // a very old browser: poll instead
      return;
    }
    var source = new EventSource("/api/events?html=1&lang=" + encodeURIComponent(lang));
    var first = true;
    source.addEventListener("change", function (e) {
      setOnline(true);
      var data = null;
      try { data = JSON.parse(e.data); } catch (err) { data = null; }
      var live = $("live");
      var shown = live ? live.getAttribute("data-change") : null;
      var sameRun = live && data && String(data.boot) === live.getAttribute("data-boot");
      if (first && sameRun && shown !== null && String(data.change_id) === shown) { first = false; return; }
      first = false;
      if (data && data.html) { swapIn(data.html); } else { refresh(); }
    }, false);
    // This tablet was unpaired (here, or removed on /tablets): the page reloads as a watcher's.
    source.addEventListener("revoked", function () { source.close(); location.reload(); }, false);
    source.onopen = function () { setOnline(true); retryDelay = 2000; };
    source.onerror = function () {
      // The browser reconnects by itself (retry), sending Last-Event-ID: a stream that ends as
      // planned comes back at once, unseen. A refusal (every live connection in use: 503)
      // closes the stream for good: say so, and try again later, longer each time.
      if (source.readyState !== 2) {
        setTimeout(function () { if (source.readyState !== 1) { setOnline(false); } }, 1500);
        return;
      }
      setOnline(false);
      request("GET", "/api/events/room", null, function (status, reply) {
        if (status === 200 && reply && reply.free === false && reply.message) { setBusy(reply.message); }
      });
      setTimeout(connect, retryDelay + Math.random() * 1000);
      retryDelay = Math.min(retryDelay * 2, 15000);
    };
  }

  // Every live connection in use: the status says that (not "offline") until the stream is back.
  function setBusy(text) {
    var conn = $("conn");
    if (!conn) { return; }
    conn.textContent = text;
    conn.className = "conn busy";
  }

  /* --- taps ------------------------------------------------------------------ */

  // The live stream can redraw the table before the reply to the request that changed it: a tap
  // made on that newer table is the next request, sent when the reply is in; a tap on the table the
  // request was made on is a repeat of it, dropped.
  function send(url, data, after) {
    if (busy) {
      if (data && data.version !== undefined && sentOn !== null && data.version !== sentOn) {
        nextSend = [url, data, after];
      }
      return;
    }
    busy = true;
    acted = true;
    sentOn = data && data.version !== undefined ? data.version : null;
    body.className += " busy";
    request("POST", url, data, function (status, reply) {
      busy = false;
      body.className = body.className.replace(/\s*busy/g, "");
      if (status >= 200 && status < 300) {
        if (after) { after(reply); } else { refresh(); }
      } else {
        refused(status, reply);
        refresh();
      }
      var next = nextSend;
      nextSend = null;
      if (next) { send(next[0], next[1], next[2]); }
    });
  }

  function submitInput(input, on) {
    send("/api/input", stamp({input: input}, on));
  }

  document.addEventListener("mousedown", notePress, true);
  document.addEventListener("touchstart", notePress, true);

  document.addEventListener("click", function (e) {
    var target = e.target;
    var on = chosenOn();
    var inLive = closest(target, function (el) { return el.id === "live"; });
    if (inLive && isHeld() && closest(target, function (el) { return el.getAttribute && el.getAttribute("aria-disabled") === "true"; })) {
      ignoredTap(e);
      return;
    }
    var option = closest(target, function (el) { return el.hasAttribute && el.hasAttribute("data-input"); });
    if (option && !option.disabled) {
      e.preventDefault();
      submitInput(JSON.parse(option.getAttribute("data-input")), on);
      return;
    }
    var button = closest(target, function (el) { return el.hasAttribute && el.hasAttribute("data-button"); });
    if (button && !button.disabled) {
      e.preventDefault();
      var name = button.getAttribute("data-button");
      var reload = button.hasAttribute("data-reload");
      var data = stamp({}, on);
      if (name === "confirm") { data.input = shownProposal(); }
      send("/api/" + name, data, reload ? function () { location.reload(); } : null);
      return;
    }
    var face = closest(target, function (el) { return el.hasAttribute && el.hasAttribute("data-face"); });
    if (face && closest(face, function (el) { return el.id === "dice-entry"; })) {
      e.preventDefault();
      enterFace(parseInt(face.getAttribute("data-face"), 10), on);
      return;
    }
    var slot = closest(target, function (el) { return el.hasAttribute && el.hasAttribute("data-slot"); });
    if (slot) {
      e.preventDefault();
      var i = parseInt(slot.getAttribute("data-slot"), 10);
      diceSelected = diceSelected === i ? -1 : i;
      drawDice();
      return;
    }
    var dismiss = closest(target, function (el) { return el.hasAttribute && el.hasAttribute("data-dismiss"); });
    if (dismiss) {
      e.preventDefault();
      remember("dismissed-" + dismiss.getAttribute("data-dismiss"));
      body.className += " " + dismiss.getAttribute("data-dismiss") + "-dismissed";
      return;
    }
    if (target.id === "dice-clear") { e.preventDefault(); diceSelected = -1; sendDice({clear: true}, on); return; }
    if (target.id === "dice-enter") {
      e.preventDefault();
      if (!target.disabled) { send("/api/confirm", stamp({input: shownProposal()}, on)); }
      return;
    }
    var resume = closest(target, function (el) { return el.hasAttribute && el.hasAttribute("data-resume"); });
    if (resume) {
      e.preventDefault();
      send("/api/resume", {game_id: parseInt(resume.getAttribute("data-resume"), 10)}, goTable);
      return;
    }
  }, false);

  function goTable() { location.href = "/"; }

  // The panel's buttons on the keyboard too (C, U, D, R), as on the Pi's panel; never while typing.
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.altKey || e.metaKey) { return; }
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    // Only the four letters are shortcuts; any other key (Enter, Space, arrows) keeps its own job.
    var key = (e.key || String.fromCharCode(e.keyCode || e.which || 0)).toLowerCase();
    if (!/^[cudr]$/.test(key)) { return; }
    var button = document.querySelector("[data-button][data-key='" + key + "']");
    if (button && !button.disabled && !(isHeld() && button.getAttribute("aria-disabled") === "true")) {
      e.preventDefault();
      button.click();
    }
  }, false);

  /* --- entering a gate roll: the server's proposal, corrected by taps ------- */

  // What CONFIRM would enter, as this page shows it: the server refuses it if it changed meanwhile.
  function shownProposal() {
    var live = $("live");
    var text = live ? live.getAttribute("data-proposal") : "";
    if (!text) { return null; }
    try { return JSON.parse(text); } catch (e) { return null; }
  }

  function entryCount() {
    var entry = $("dice-entry");
    return entry ? parseInt(entry.getAttribute("data-count"), 10) : 0;
  }

  function proposedDice() {
    var entry = $("dice-entry");
    var text = entry ? entry.getAttribute("data-proposal") : "";
    if (!text) { return []; }
    try { return JSON.parse(text).dice || []; } catch (e) { return []; }
  }

  // Each tap goes to the server in order; the row is redrawn from what it proposes then.
  function sendDice(data, on) {
    stamp(data, on || {version: liveVersion(), prompt: livePrompt()});
    diceQueue.push(data);
    pumpDice();
  }

  function pumpDice() {
    if (diceSending || !diceQueue.length) { return; }
    diceSending = true;
    request("POST", "/api/dice", diceQueue.shift(), function (status, reply) {
      diceSending = false;
      if (status < 200 || status >= 300) { diceQueue = []; refused(status, reply); }
      refresh();
      pumpDice();
    });
  }

  function enterFace(value, on) {
    var data = {value: value};
    if (diceSelected >= 0) { data.die = diceSelected; }
    diceSelected = -1;
    sendDice(data, on);
    drawDice();
  }

  function drawDice() {
    var dice = proposedDice();
    var slots = document.querySelectorAll ? document.querySelectorAll("#slots .slot") : [];
    for (var i = 0; i < slots.length; i++) {
      var value = dice[i];
      slots[i].textContent = value ? String(value) : (i < dice.length ? "?" : "\u00a0");
      slots[i].className = "slot" + (value ? " filled" : (i < dice.length ? " unsure" : "")) +
        (i === diceSelected ? " selected" : "");
      // its name says what it shows ("Die 2: 5"), and whether it is the one being corrected
      slots[i].setAttribute("aria-label", slots[i].getAttribute("data-name") + ": " + slots[i].textContent.replace("\u00a0", "–"));
      slots[i].setAttribute("aria-pressed", i === diceSelected ? "true" : "false");
    }
    var enter = $("dice-enter");
    if (enter) { enter.disabled = !shownProposal() || !body.className.match(/\bpaired\b/); }
  }

  function setupDiceEntry() {
    if (!$("dice-entry")) { diceSelected = -1; return; }
    if (diceSelected >= entryCount()) { diceSelected = -1; }
    drawDice();
  }

  /* --- setup, records ----------------------------------------------------- */

  function formSetup(form) {
    var players = [];
    var seats = [];
    for (var i = 0; i < 4; i++) {
      var name = form.elements["player" + i].value.replace(/^\s+|\s+$/g, "");
      if (name) { players.push(name); seats.push(i); }
    }
    var first = 0;
    var radios = form.elements.first;
    for (var j = 0; j < radios.length; j++) {
      if (radios[j].checked) {
        var k = seats.indexOf(parseInt(radios[j].value, 10));
        first = k < 0 ? 0 : k;
      }
    }
    var data = {game: form.getAttribute("data-game"), players: players, first_player: first};
    // The game's own options, drawn from its SETUP_OPTIONS (web/pages.py): a choice is the
    // value checked, checks the list of those checked; an option asked at other player counts
    // is left out; a dotted key nests ("tops.inn").
    var options = form.querySelectorAll("[data-option]");
    for (var o = 0; o < options.length; o++) {
      var opt = options[o];
      var counts = opt.getAttribute("data-players");
      if (counts && counts.split(" ").indexOf(String(players.length)) < 0) { continue; }
      var inputs = opt.querySelectorAll("input");
      var value = opt.getAttribute("data-kind") === "checks" ? [] : null;
      for (var n = 0; n < inputs.length; n++) {
        if (!inputs[n].checked) { continue; }
        var v = JSON.parse(inputs[n].value);
        if (value === null || !Array.isArray(value)) { value = v; } else { value.push(v); }
      }
      if (value === null) { continue; }
      var path = opt.getAttribute("data-option").split(".");
      var at = data;
      for (var p = 0; p < path.length - 1; p++) { at[path[p]] = at[path[p]] || {}; at = at[path[p]]; }
      at[path[path.length - 1]] = value;
    }
    return data;
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.id === "setup-form") {
      e.preventDefault();
      send("/api/game", formSetup(form), goTable);
    } else if (form.id === "record-form") {
      e.preventDefault();
      var input = $("record-file");
      if (!input.files || !input.files.length || !window.FileReader) { return; }
      var reader = new FileReader();
      // The file's bytes as they are: the companion reads them as UTF-8 and names a line that is
      // not (readAsText would put U+FFFD in its place, and a name would be lost unsaid).
      reader.onload = function () { send("/api/record", reader.result, goTable, "text/plain; charset=utf-8"); };
      reader.readAsArrayBuffer(input.files[0]);
    }
  }, false);

  // send() with a content type for plain-text bodies (a record).
  var plainSend = send;
  send = function (url, data, after, contentType) {
    if (!contentType) { return plainSend(url, data, after); }
    if (busy) { return; }
    busy = true;
    sentOn = null;
    request("POST", url, data, function (status, reply) {
      busy = false;
      if (status >= 200 && status < 300) { after(reply); } else { refused(status, reply); }
    }, contentType);
  };

  // What this device has been told once (a dismissed banner), kept in its own storage.
  function remember(name) {
    try { window.localStorage.setItem("atlandice." + name, "1"); } catch (e) { /* private mode: for this visit */ }
  }
  function remembered(name) {
    try { return window.localStorage.getItem("atlandice." + name) === "1"; } catch (e) { return false; }
  }
  if (remembered("dismissed-profile-note")) { body.className += " profile-note-dismissed"; }

  if (page === "table") {
    setupDiceEntry();
    connect();
  }
}());
