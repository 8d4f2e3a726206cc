/* grandprix site: find a player by name from any page. Order, case and accents do not matter
   ("hana hayes" finds "Hayes, Hana"), any part of a name finds it ("bott" finds Abbott), and so
   do the usual ASCII spellings ("bjoern" finds Bjørn, "djordje" Đorđe); Enter opens the only
   match. Without JavaScript the form
   opens players.html, the list of every player. The names come from players.js, fetched when
   the search is first used (not by every page: it holds every player); the words it
   shows from the form's data attributes (data-none, data-one, data-many and data-more, "{n}"
   and "{shown}" in them replaced by the numbers), in the page's language. */
(function () {
  "use strict";
  var form = document.querySelector("form.search");
  if (!form) { return; }
  var input = document.getElementById("find");
  var status = document.getElementById("find-status");
  var list = document.getElementById("find-results");
  var root = form.getAttribute("data-root") || "";
  var players = null;  /* read from players.js when the search is first used */
  var waiting = [];
  var SHOWN = 10;

  /* Run ``then`` with the players read, fetching players.js the first time. */
  function withPlayers(then) {
    if (players) { then(); return; }
    waiting.push(then);
    if (waiting.length > 1) { return; }
    var script = document.createElement("script");
    script.src = root + "players.js";
    script.onload = function () {
      players = (window.grandprixPlayers || []).map(function (entry) {
        return { name: entry[0], href: entry[1], words: words(entry[0]).concat(spelt(entry[0])) };
      });
      waiting.splice(0).forEach(function (f) { f(); });
    };
    script.onerror = function () { waiting = []; form.submit(); };  /* players.html, then */
    document.head.appendChild(script);
  }

  function said(name, n) {
    return (form.getAttribute("data-" + name) || "").replace("{n}", String(n))
      .replace("{shown}", String(SHOWN));
  }

  function words(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/ß/g, "ss").replace(/ø/g, "o").replace(/ł/g, "l").replace(/đ/g, "d")
      .replace(/æ/g, "ae").replace(/œ/g, "oe").replace(/þ/g, "th").replace(/ı/g, "i")
      .split(/[\s,.;'-]+/).filter(function (w) { return w !== ""; });
  }

  /* The name as it is written without its letters in ASCII: Bjørn as "bjoern", Đorđe as
     "djordje", Müller as "mueller", Ångström as "aangstroem". */
  function spelt(text) {
    return words(text.toLowerCase().replace(/[äæ]/g, "ae").replace(/[öø]/g, "oe")
      .replace(/ü/g, "ue").replace(/å/g, "aa").replace(/đ/g, "dj"));
  }

  /* Every word of the query is a part of a word of the name, anywhere in it ("bott" finds
     Abbott), whatever the order, case and accents. */
  function matches(query) {
    var wanted = words(query);
    if (wanted.length === 0) { return []; }
    return players.filter(function (p) {
      return wanted.every(function (w) {
        return p.words.some(function (have) { return have.indexOf(w) !== -1; });
      });
    });
  }

  function show(found, query) {
    list.textContent = "";
    if (query.trim() === "") { status.textContent = ""; return; }
    if (found.length === 0) { status.textContent = said("none", 0); return; }
    status.textContent = said(found.length === 1 ? "one" : found.length > SHOWN ? "more" : "many",
      found.length);
    found.slice(0, SHOWN).forEach(function (p) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = root + p.href;
      link.textContent = p.name;
      item.appendChild(link);
      list.appendChild(item);
    });
  }

  input.addEventListener("focus", function () { withPlayers(function () {}); });
  input.addEventListener("input", function () {
    withPlayers(function () { show(matches(input.value), input.value); });
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    withPlayers(function () {
      var found = matches(input.value);
      show(found, input.value);
      if (found.length === 1) { window.location.href = root + found[0].href; }
    });
  });
  var asked = new URLSearchParams(window.location.search).get("q");
  if (asked) {
    input.value = asked;
    withPlayers(function () { show(matches(asked), asked); });
  }
}());
