/* Atlandice's board profile editor (its templates/profile.html): a space added to or taken
 * off the track, and the form saved where the template says (data-save).
 *
 * ES5, like app.js; it acts only on the editor's own elements (#profile-form, #add-space,
 * [data-remove-space]) and says the answer in the page's toast, as app.js does.
 */
(function () {
  "use strict";

  var body = document.body;
  var saving = false;

  function $(id) { return document.getElementById(id); }

  function closest(el, test) {
    while (el && el !== document) {
      if (test(el)) { return el; }
      el = el.parentNode;
    }
    return null;
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

  function refused(status, reply) {
    if (status === 0) { toast(body.getAttribute("data-t-network")); return; }
    var text = body.getAttribute("data-t-refused") + " " + (reply && reply.message ? reply.message : status);
    if (reply && reply.rule) { text += " (" + reply.rule + ")"; }
    toast(text);
  }

  function save(url, data) {
    if (saving) { return; }
    saving = true;
    var meta = document.querySelector('meta[name="csrf-token"]');
    var xhr = new XMLHttpRequest();
    xhr.open("POST", url, true);
    xhr.setRequestHeader("X-Requested-With", "XMLHttpRequest");
    xhr.setRequestHeader("X-CSRF-Token", meta ? meta.getAttribute("content") : "");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4) { return; }
      saving = false;
      var reply = null;
      try { reply = JSON.parse(xhr.responseText); } catch (e) { reply = null; }
      if (xhr.status >= 200 && xhr.status < 300) { toast(body.getAttribute("data-t-saved") || "OK", "ok"); }
      else { refused(xhr.status, reply); }
    };
    xhr.send(JSON.stringify(data));
  }

  function addSpace() {
    var tpl = $("space-template");
    var track = $("track");
    if (!tpl || !track) { return; }
    var holder = document.createElement("ol");
    holder.innerHTML = tpl.innerHTML;
    var row = holder.getElementsByTagName("li")[0];
    track.insertBefore(row, track.lastElementChild || track.lastChild);
  }

  function formProfile(form) {
    var spaces = form.querySelectorAll('[name="space"]');
    var track = [];
    for (var i = 0; i < spaces.length; i++) { track.push(spaces[i].value); }
    var icons = {};
    var selects = form.querySelectorAll("select[data-tile]");
    for (var j = 0; j < selects.length; j++) { icons[selects[j].getAttribute("data-tile")] = parseInt(selects[j].value, 10); }
    return {name: form.getAttribute("data-name") || "custom", confirmed: $("confirmed").checked,
            track: track, icons: icons};
  }

  document.addEventListener("click", function (e) {
    var target = e.target;
    if (target.hasAttribute && target.hasAttribute("data-remove-space")) {
      e.preventDefault();
      var row = closest(target, function (el) { return el.tagName === "LI"; });
      if (row) { row.parentNode.removeChild(row); }
    } else if (target.id === "add-space") {
      e.preventDefault();
      addSpace();
    }
  }, false);

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.id !== "profile-form") { return; }
    e.preventDefault();
    save(form.getAttribute("data-save"), formProfile(form));
  }, false);
}());
