(function () {
  "use strict";

  // -- lazy timelines: chunks past the first stay in <template> until needed ------------------
  // the step an evidence link just went to: kept in view while chunks above it render
  var pinned = null;
  var pinnedUntil = 0;

  function expand(template) {
    var placeholder = template.nextElementSibling;
    template.replaceWith(template.content);
    if (placeholder && placeholder.classList.contains("lazy-placeholder")) {
      placeholder.remove();
    }
    if (pinned && Date.now() < pinnedUntil) {
      pinned.scrollIntoView({ block: "center" });
    }
  }

  function ensureRendered(id) {
    if (document.getElementById(id)) {
      return document.getElementById(id);
    }
    var templates = document.querySelectorAll("template.lazy-chunk");
    for (var i = 0; i < templates.length; i++) {
      var ids = " " + templates[i].getAttribute("data-ids");
      if (ids.indexOf(" " + id + " ") >= 0) {
        expand(templates[i]);  // only its own chunk: the ones above stay lazy
        break;
      }
    }
    return document.getElementById(id);
  }

  document.querySelectorAll(".lazy-placeholder .expand").forEach(function (button) {
    button.addEventListener("click", function () {
      var template = button.parentElement.previousElementSibling;
      if (template && template.tagName === "TEMPLATE") {
        expand(template);
      }
    });
  });

  // A chunk renders by itself only at the end of the rendered steps, as one scrolls down to
  // it. A chunk left between others after a jump into a later chunk waits for its button, so
  // that nothing pushes away the step one is looking at.
  var checking = false;

  function renderNearChunks() {
    checking = false;
    var height = window.innerHeight;
    document.querySelectorAll("li.lazy-placeholder").forEach(function (placeholder) {
      var template = placeholder.previousElementSibling;
      if (!template || template.tagName !== "TEMPLATE") {
        return;
      }
      var before = template.previousElementSibling;
      if (!before || !before.classList.contains("step")) {
        return;
      }
      var top = placeholder.getBoundingClientRect().top;
      if (top >= height / 2 && top <= height + 800) {
        expand(template);
      }
    });
  }

  function scheduleCheck() {
    if (!checking) {
      checking = true;
      window.requestAnimationFrame(renderNearChunks);
    }
  }

  window.addEventListener("scroll", scheduleCheck, { passive: true });
  window.addEventListener("resize", scheduleCheck);
  scheduleCheck();

  // -- evidence links: open what hides the step, scroll to it, flash it -----------------------
  function reveal(element) {
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") {
        node.open = true;
      }
      if (node.classList && node.classList.contains("hidden")) {
        node.classList.remove("hidden");
      }
    }
  }

  function goTo(id) {
    var element = ensureRendered(id);
    if (!element) {
      return false;
    }
    reveal(element);
    pinned = element;
    pinnedUntil = Date.now() + 1500;
    element.scrollIntoView({ block: "center" });
    element.classList.remove("flash");
    void element.offsetWidth; // restart the highlight
    element.classList.add("flash");
    window.setTimeout(function () { element.classList.remove("flash"); }, 2500);
    if (history.replaceState) {
      history.replaceState(null, "", "#" + id);
    }
    return true;
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-target]") : null;
    if (link && goTo(link.getAttribute("data-target"))) {
      event.preventDefault();
    }
  });

  if (location.hash.length > 1) {
    goTo(decodeURIComponent(location.hash.slice(1)));
  }

  // -- filters: by status and by check -------------------------------------------------------
  function statusesOf(element) {
    try {
      return JSON.parse(element.getAttribute("data-checks") || "{}");
    } catch (e) {
      return {};
    }
  }

  function applyFilters() {
    var wanted = {};
    document.querySelectorAll("#filters input[name=status]").forEach(function (box) {
      wanted[box.value] = box.checked;
    });
    var check = document.getElementById("check-filter").value;
    var shown = 0;
    var total = 0;
    document.querySelectorAll("section.transcript").forEach(function (section) {
      total += 1;
      var status = section.getAttribute("data-status");
      var visible;
      if (check) {
        var byCheck = statusesOf(section);
        visible = Object.prototype.hasOwnProperty.call(byCheck, check) && wanted[byCheck[check]];
      } else {
        visible = !!wanted[status];
      }
      section.classList.toggle("hidden", !visible);
      section.querySelectorAll("li.check").forEach(function (li) {
        li.classList.toggle("hidden", !!check && li.getAttribute("data-check") !== check);
      });
      var row = document.querySelector('tr.run-row[data-for="' + section.id + '"]');
      if (row) {
        row.classList.toggle("hidden", !visible);
      }
      if (visible) {
        shown += 1;
      }
    });
    document.getElementById("shown").textContent = "showing " + shown + " of " + total;
  }

  document.querySelectorAll("#filters input, #filters select").forEach(function (input) {
    input.addEventListener("change", applyFilters);
  });
})();
