(function () {
  "use strict";

  // -- lazy timelines: chunks past the first stay in <template> until needed ------------------
  function expand(template) {
    var placeholder = template.nextElementSibling;
    template.replaceWith(template.content);
    if (placeholder && placeholder.classList.contains("lazy-placeholder")) {
      placeholder.remove();
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
        // the chunks above it first, so that nothing rendered later pushes the step away
        var timeline = templates[i].parentElement;
        for (var j = 0; j <= i; j++) {
          if (templates[j].parentElement === timeline) {
            expand(templates[j]);
          }
        }
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

  if ("IntersectionObserver" in window) {
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) {
          observer.unobserve(entry.target);
          var template = entry.target.previousElementSibling;
          if (template && template.tagName === "TEMPLATE") {
            expand(template);
          }
        }
      });
    }, { rootMargin: "800px" });
    document.querySelectorAll(".lazy-placeholder").forEach(function (p) {
      observer.observe(p);
    });
  }

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
    var map = {};
    (element.getAttribute("data-checks") || "").split(" ").forEach(function (pair) {
      var cut = pair.lastIndexOf(":");
      if (cut > 0) {
        var name = pair.slice(0, cut);
        var status = pair.slice(cut + 1);
        // a check that ran several times counts with its worst status
        var rank = { fail: 4, error: 3, inconclusive: 2, pass: 1 };
        if (!map[name] || rank[status] > rank[map[name]]) {
          map[name] = status;
        }
      }
    });
    return map;
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
