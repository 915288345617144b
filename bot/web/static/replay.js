// Stepping through a replay without reloading: the buttons, the move list and the arrow keys
// (Home/End: the start and the end). Without script every control is a plain link.
"use strict";
(function () {
  const box = document.getElementById("replay");
  const data = JSON.parse(document.getElementById("steps").textContent);
  const steps = data.steps, last = steps.length - 1;
  const board = document.getElementById("board"), counter = document.getElementById("counter");
  const caption = document.getElementById("caption"), hands = document.getElementById("hands");
  const list = document.getElementById("moves"), links = Array.from(list.querySelectorAll("a"));
  let at = Number(box.dataset.at);

  function show(ply) {
    at = Math.max(0, Math.min(last, ply));
    const step = steps[at];
    board.src = box.dataset.src + at + ".png";
    const where = data.position.replace("{ply}", String(at));
    board.alt = where;
    counter.textContent = where;
    caption.textContent = step.move ? step.who + ": " + step.move : data.start;
    hands.replaceChildren(...step.hands.map(function (line) {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    links.forEach(function (a) {
      if (Number(a.dataset.ply) === at) {
        a.setAttribute("aria-current", "step");
        list.scrollTop = a.parentNode.offsetTop - list.offsetTop - list.clientHeight / 2;  // the list, not the page
      } else a.removeAttribute("aria-current");
    });
    history.replaceState(null, "", "?ply=" + at);
    document.querySelectorAll(".languages a").forEach(function (a) {  // the other language, here
      const url = new URL(a.href);
      url.searchParams.set("ply", String(at));
      a.href = url.toString();
    });
    if (at < last) new Image().src = box.dataset.src + (at + 1) + ".png";  // the next one, ready
  }

  const moves = {first: () => 0, prev: () => at - 1, next: () => at + 1, last: () => last};
  Object.keys(moves).forEach(function (id) {
    document.getElementById(id).addEventListener("click", function (event) {
      event.preventDefault();
      show(moves[id]());
    });
  });
  links.forEach(function (a) {
    a.addEventListener("click", function (event) { event.preventDefault(); show(Number(a.dataset.ply)); });
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last};
    if (event.key in keys) { event.preventDefault(); show(keys[event.key]); }
  });
  box.classList.add("scripted");
})();
