// The offline page (templates/pwa/offline.html): try the page again on a press, and by itself
// when the browser says the network is back.
const retry = () => window.location.reload();
document.getElementById("offline-retry")?.addEventListener("click", retry);
window.addEventListener("online", retry);
