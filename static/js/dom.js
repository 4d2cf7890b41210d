// One way to make an element, for every page's modules (the deck builder, the game table):
// attributes, dataset, listeners (on...) and children (arrays flattened; null, undefined
// and false left out) in one call.

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => {
    if (v === null || v === undefined || v === false) return;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  });
  children.flat(Infinity).forEach((c) => { if (c !== null && c !== undefined && c !== false) node.append(c); });
  return node;
}
