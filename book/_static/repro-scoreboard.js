/* The scoreboard: filter by badge, sort by a column (offline, no library). Rows keep their data-* attributes,
   written by repro.site.scoreboard_html; sorting drops the part headings, "every badge" unsorted restores them. */
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("table.repro-scoreboard").forEach((table) => {
    const body = table.tBodies[0];
    const original = Array.from(body.children);
    const select = document.querySelector("select.repro-filter");
    let sortKey = null, ascending = true;
    const numeric = (v) => v !== undefined && v !== "" && !isNaN(Number(v));
    const apply = () => {
      const wanted = select ? select.value : "";
      let rows = original.filter((r) => r.classList.contains("repro-row"));
      rows.forEach((r) => { r.hidden = Boolean(wanted) && r.dataset.badge !== wanted; });
      if (sortKey) {
        rows = rows.slice().sort((a, b) => {
          const x = a.dataset[sortKey], y = b.dataset[sortKey];
          const c = numeric(x) && numeric(y) ? Number(x) - Number(y) : String(x || "").localeCompare(String(y || ""));
          return ascending ? c : -c;
        });
        body.replaceChildren(...rows);
      } else {
        body.replaceChildren(...original);
        original.filter((r) => r.classList.contains("repro-part")).forEach((h) => { h.hidden = Boolean(wanted); });
      }
      table.dataset.sort = sortKey ? `${sortKey}:${ascending ? "asc" : "desc"}` : "";
      table.dataset.shown = String(rows.filter((r) => !r.hidden).length);
    };
    table.querySelectorAll("th[data-sort]").forEach((th) => {
      th.tabIndex = 0;
      th.title = "sort by this column";
      const click = () => {
        const key = th.dataset.sort;
        ascending = sortKey === key ? !ascending : true;
        sortKey = key;
        table.querySelectorAll("th[data-sort]").forEach((o) => o.removeAttribute("aria-sort"));
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        apply();
      };
      th.addEventListener("click", click);
      th.addEventListener("keydown", (ev) => { if (ev.key === "Enter") click(); });
    });
    if (select) select.addEventListener("change", apply);
    apply();
  });
});
