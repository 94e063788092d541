// On every page (templates/base.html): registers the service worker (web/pwa.py) and offers
// "Install" where the browser allows it (Chromium's beforeinstallprompt, phones and desktops);
// elsewhere the button stays hidden.
const worker = document.querySelector('meta[name="service-worker"]')?.content;
if (worker && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {});
}

const button = document.getElementById("install-app");
let offered = null;
window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault(); // our button instead of the browser's banner
  offered = event;
  if (button) button.hidden = false;
});
button?.addEventListener("click", async () => {
  if (!offered) return;
  button.hidden = true;
  offered.prompt();
  await offered.userChoice;
  offered = null;
});
window.addEventListener("appinstalled", () => {
  offered = null;
  if (button) button.hidden = true;
});
