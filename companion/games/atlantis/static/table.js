/* Atlantis on the table page: the taps that build an input step by step.
 *
 * ES5, like app.js. A move: tap a citizen, then each card in the order played; the
 * server draws each step from the turn's own options (GET /step), and its
 * last step offers the finished moves as ordinary [data-input] buttons, which app.js
 * sends. A payment, a laid or revealed tile and a count of cards are put together
 * here from the taps into the [data-input] of the button that sends them. The lay-out
 * view's ticks (#laying) are kept in this browser's localStorage, per layout.
 */
(function () {
  "use strict";

  var draft = null;            // the move being built: {version, citizen, cards}
  var LAID = "atl-laid:";      // localStorage: the spaces ticked off while laying the path, per layout

  function $(id) { return document.getElementById(id); }

  function closest(el, name) {
    while (el && el !== document) {
      if (el.nodeType === 1 && el.hasAttribute(name)) { return el; }
      el = el.parentNode;
    }
    return null;
  }

  function showStep() {
    var holder = $("atl-move");
    if (!holder) { draft = null; return; }
    if (!draft || String(draft.version) !== holder.getAttribute("data-version")) {
      draft = null;
      holder.innerHTML = "";
      return;
    }
    var url = "/step?version=" + draft.version + "&citizen=" + draft.citizen +
      "&cards=" + encodeURIComponent(draft.cards.join(",")) + "&lang=" + encodeURIComponent(holder.getAttribute("data-lang"));
    var asked = draft;
    var xhr = new XMLHttpRequest();
    xhr.open("GET", url, true);
    xhr.setRequestHeader("X-Requested-With", "XMLHttpRequest");
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4 || asked !== draft) { return; }
      var now = $("atl-move");
      if (!now) { return; }
      if (xhr.status === 200) {
        now.innerHTML = xhr.responseText;
        var first = now.querySelector("button");
        if (first) { try { first.focus({preventScroll: true}); } catch (e) { first.focus(); } }
      } else {
        draft = null;
        now.innerHTML = "";
      }
    };
    xhr.send(null);
  }

  function pressed(el, on) {
    el.setAttribute("aria-pressed", on ? "true" : "false");
    el.className = el.className.replace(/\s*selected/g, "") + (on ? " selected" : "");
  }

  function payTotal() {
    var pay = $("atl-pay");
    var tiles = [], total = 0;
    var chosen = pay.querySelectorAll("[data-atl-tile][aria-pressed=true]");
    for (var i = 0; i < chosen.length; i++) {
      tiles.push(chosen[i].getAttribute("data-atl-tile"));
      total += parseInt(chosen[i].getAttribute("data-value"), 10);
    }
    var cards = parseInt($("atl-card-count").textContent, 10);
    total += cards;
    var owed = parseInt(pay.getAttribute("data-owed"), 10);
    var said = $("atl-total");
    var key = total < owed ? "data-t-short" : (total === owed ? "data-t-exact" : "data-t-over");
    said.textContent = said.getAttribute(key).replace("{paid}", total).replace("{owed}", owed)
      .replace("{n}", Math.abs(total - owed));
    said.className = "atl-total " + key.slice(7);
    $("atl-pay-go").setAttribute("data-input", JSON.stringify({type: "pay", tiles: tiles, cards: cards}));
  }

  function step(counter, delta, most) {
    var n = Math.max(0, Math.min(most, parseInt(counter.textContent, 10) + delta));
    counter.textContent = String(n);
    return n;
  }

  // The lay-out view (#laying): each space ticked off as it is laid, kept in this browser only,
  // under the layout's key; a new game's layout has another key, and the old ticks are dropped.
  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function laidKey() {
    var lay = $("laying");
    return lay ? LAID + lay.getAttribute("data-key") : null;
  }

  function readLaid() {
    var key = laidKey(), ls = store();
    if (!key || !ls) { return []; }
    try { return JSON.parse(ls.getItem(key) || "[]"); } catch (e) { return []; }
  }

  function writeLaid(ticks) {
    var key = laidKey(), ls = store();
    if (!key || !ls) { return; }
    try {
      for (var i = ls.length - 1; i >= 0; i--) {
        var k = ls.key(i);
        if (k && k.indexOf(LAID) === 0 && k !== key) { ls.removeItem(k); }
      }
      if (ticks.length) { ls.setItem(key, JSON.stringify(ticks)); } else { ls.removeItem(key); }
    } catch (e) { /* a full or refused store: the ticks live as long as the page */ }
  }

  function showLaid(ticks) {
    var lay = $("laying");
    if (!lay) { return; }
    var rows = lay.querySelectorAll("[data-atl-lay]");
    var next = null, n = 0;
    for (var i = 0; i < rows.length; i++) {
      var pos = rows[i].getAttribute("data-atl-lay");
      var done = ticks.indexOf(pos) >= 0;
      rows[i].querySelector("[data-atl-laid]").checked = done;
      if (done) { n++; }
      if (!done && !next) { next = rows[i]; }
      rows[i].className = rows[i].className.replace(/\s*(done|next)\b/g, "") +
        (done ? " done" : "") + (rows[i] === next ? " next" : "");
    }
    var said = $("atl-laid");
    said.textContent = said.getAttribute("data-t").replace("{n}", n).replace("{total}", rows.length);
  }

  function restoreLaid() {
    if (!$("laying")) { return; }
    var ticks = readLaid();
    writeLaid(ticks);              // drops another game's ticks
    showLaid(ticks);
  }

  document.addEventListener("change", function (e) {
    var el = closest(e.target, "data-atl-laid");
    if (!el) { return; }
    var pos = el.getAttribute("data-atl-laid");
    var ticks = readLaid().filter(function (p) { return p !== pos; });
    if (el.checked) { ticks.push(pos); }
    writeLaid(ticks);
    showLaid(ticks);
  }, false);

  document.addEventListener("click", function (e) {
    var t = e.target, el;
    if ((el = closest(t, "data-atl-laid-clear"))) {
      e.preventDefault();
      writeLaid([]);
      showLaid([]);
    } else if ((el = closest(t, "data-atl-citizen")) && !el.disabled) {
      e.preventDefault();
      draft = {version: $("atl-move").getAttribute("data-version"),
               citizen: parseInt(el.getAttribute("data-atl-citizen"), 10), cards: []};
      var citizens = document.querySelectorAll("[data-atl-citizen]");
      for (var i = 0; i < citizens.length; i++) { pressed(citizens[i], citizens[i] === el); }
      showStep();
    } else if ((el = closest(t, "data-atl-card"))) {
      e.preventDefault();
      if (draft) { draft.cards.push(el.getAttribute("data-atl-card")); showStep(); }
    } else if ((el = closest(t, "data-atl-back"))) {
      e.preventDefault();
      if (draft && draft.cards.length) { draft.cards.pop(); showStep(); } else { draft = null; showStep(); }
    } else if ((el = closest(t, "data-atl-cancel"))) {
      e.preventDefault();
      draft = null;
      showStep();
    } else if ((el = closest(t, "data-atl-colour"))) {
      e.preventDefault();
      var pick = $("atl-pick");
      var colours = pick.querySelectorAll("[data-atl-colour]");
      for (var c = 0; c < colours.length; c++) { pressed(colours[c], colours[c] === el); }
      var values = pick.querySelectorAll("[data-atl-value]");
      for (var v = 0; v < values.length; v++) {
        values[v].disabled = false;
        values[v].setAttribute("data-input", JSON.stringify({type: pick.getAttribute("data-type"),
          colour: el.getAttribute("data-atl-colour"), value: parseInt(values[v].getAttribute("data-atl-value"), 10)}));
      }
    } else if ((el = closest(t, "data-atl-tile"))) {
      e.preventDefault();
      pressed(el, el.getAttribute("aria-pressed") !== "true");
      payTotal();
    } else if ((el = closest(t, "data-atl-cards"))) {
      e.preventDefault();
      step($("atl-card-count"), parseInt(el.getAttribute("data-atl-cards"), 10),
           parseInt($("atl-pay").getAttribute("data-hand"), 10));
      payTotal();
    } else if ((el = closest(t, "data-atl-count"))) {
      e.preventDefault();
      var n = step($("atl-count-n"), parseInt(el.getAttribute("data-atl-count"), 10),
                   parseInt($("atl-count").getAttribute("data-most"), 10));
      $("atl-count-go").setAttribute("data-input", JSON.stringify({type: "cards_left", count: n}));
    }
  }, false);

  // app.js swaps a fresh table in at every change: a move being built is drawn again
  // while the game has not moved on (its version), and forgotten once it has.
  function fresh() {
    if ($("atl-pay")) { payTotal(); }
    restoreLaid();
    if (draft && $("atl-move")) {
      var el = document.querySelector("[data-atl-citizen='" + draft.citizen + "']");
      if (el) { pressed(el, true); }
    }
    showStep();
  }

  var main = $("main");
  if (main && window.MutationObserver) {
    new MutationObserver(function (changes) {
      for (var i = 0; i < changes.length; i++) {
        for (var j = 0; j < changes[i].addedNodes.length; j++) {
          if (changes[i].addedNodes[j].id === "live") { fresh(); return; }
        }
      }
    }).observe(main, {childList: true});
  }
  if ($("atl-pay")) { payTotal(); }
  restoreLaid();
}());
