// The live queue: re-fetch the rows every 2 s (and at once when a filter changes). Filters
// travel in the POST body with the CSRF header, so nothing about a customer lands in a URL.
(function () {
  const body = document.getElementById("queue-rows");
  const form = document.getElementById("filters");
  if (!body || !form) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const live = document.getElementById("live");
  let busy = false;
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const r = await fetch(body.dataset.src, {
        method: "POST", body: new URLSearchParams(new FormData(form)),
        headers: { "x-csrf-token": csrf }, credentials: "same-origin", redirect: "manual",
      });
      if (r.status === 401 || r.type === "opaqueredirect") { window.location = "/login?expired=1"; return; }
      if (r.ok) { body.innerHTML = await r.text(); live.textContent = "live · " + new Date().toLocaleTimeString(); }
      else { live.textContent = "offline (" + r.status + ")"; }
    } catch (e) {
      live.textContent = "offline";
    } finally { busy = false; }
  }
  form.addEventListener("input", refresh);
  form.addEventListener("submit", (e) => { e.preventDefault(); refresh(); });
  setInterval(refresh, 2000);
})();
