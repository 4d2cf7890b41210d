// The bell in the top bar (templates/notifications/_bell.html): the personal socket
// /ws/me/ pushes the unread count and each new notification (notifications/consumers.py);
// the server renders every word, in the page's language for the list it drew, in the
// person's for what it pushes. The socket comes back after a drop, with a growing wait.
import { el } from "../dom.js";

const bell = document.getElementById("bell");
const count = document.getElementById("bell-count");
const list = document.getElementById("bell-list");
const MAX_ITEMS = 6;
let wait = 1000;

function setUnread(n) {
  count.textContent = String(n);
  count.hidden = !n;
}

function goUrl(id) {
  return bell.dataset.go.replace("/0/", `/${id}/`);
}

function addItem(item) {
  document.getElementById("bell-empty")?.remove();
  const li = el("li", { class: "unread", dataset: { id: String(item.id) } },
    el("a", { href: goUrl(item.id) }, el("b", { text: item.title }), " ", el("span", { text: item.text })));
  list.prepend(li);
  while (list.children.length > MAX_ITEMS) list.lastElementChild.remove();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${bell.dataset.socket}`);
  socket.addEventListener("open", () => { wait = 1000; });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (typeof message.unread === "number") setUnread(message.unread);
    if (message.type === "notification" && message.item) addItem(message.item);
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4401) return; // logged out: nothing to listen for
    setTimeout(connect, wait);
    wait = Math.min(wait * 2, 60000);
  });
}

function closeOnOutsideClick(event) {
  if (bell.open && !bell.contains(event.target)) bell.open = false;
}

if (bell) {
  document.addEventListener("click", closeOnOutsideClick);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") bell.open = false; });
  bell.dataset.ready = "1";
  connect();
}
