// Safe DOM construction: every piece of text goes through text nodes, never through HTML parsing.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Create an HTML element.
 * props: className, text, testid, title, dataset {}, attrs {}, on {event: handler}, style {}.
 * children: nodes or strings (strings become text nodes); null/undefined/false are skipped.
 */
export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  applyProps(node, props);
  append(node, children);
  return node;
}

/** Create an SVG element with attributes and children. */
export function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function applyProps(node, props) {
  if (props.className) node.className = props.className;
  if (props.text !== undefined && props.text !== null) node.textContent = String(props.text);
  if (props.testid) node.dataset.testid = props.testid;
  if (props.title) node.title = props.title;
  for (const [key, value] of Object.entries(props.dataset || {})) {
    if (value !== null && value !== undefined) node.dataset[key] = String(value);
  }
  for (const [name, value] of Object.entries(props.attrs || {})) {
    if (value === true) node.setAttribute(name, "");
    else if (value !== false && value !== null && value !== undefined) {
      node.setAttribute(name, String(value));
    }
  }
  for (const [name, value] of Object.entries(props.style || {})) {
    node.style.setProperty(name, String(value));
  }
  for (const [event, handler] of Object.entries(props.on || {})) {
    node.addEventListener(event, handler);
  }
}

/** Append children (nodes or strings) to a node. */
function append(node, children) {
  const list = Array.isArray(children) ? children : [children];
  for (const child of list) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** Replace every child of `node` with `children`. */
export function replace(node, children = []) {
  node.replaceChildren();
  return append(node, children);
}

/**
 * Replace the children of `node` with `children` only if they differ (their nodes, attributes
 * or texts), and say whether it did. A list or button drawn anew at every update is a new node
 * each time: a click pressed on the old node and released on the new one reaches neither, and
 * is lost. (Equal nodes carry equal data attributes: their handlers would do the same.)
 * `ignore` names attributes another module sets on the shown nodes after they are drawn (the
 * roving `tabindex` of keyboard.js), which a new drawing does not have yet.
 */
export function replaceIfChanged(node, children = [], ignore = []) {
  const drawn = [...append(document.createElement("div"), children).childNodes];
  const shown = node.childNodes;
  const same = (a, b) => (ignore.length ? withoutAttributes(a, ignore).isEqualNode(withoutAttributes(b, ignore))
    : a.isEqualNode(b));
  if (drawn.length === shown.length && drawn.every((child, i) => same(child, shown[i]))) return false;
  node.replaceChildren(...drawn);
  return true;
}

/** A deep copy of `node` without the attributes `names`, on it and every element inside. */
function withoutAttributes(node, names) {
  const copy = node.cloneNode(true);
  if (copy.nodeType !== Node.ELEMENT_NODE) return copy;
  for (const element of [copy, ...copy.querySelectorAll("*")]) {
    for (const name of names) element.removeAttribute(name);
  }
  return copy;
}

/** A button; `action` (an action object) is stored as canonical JSON in data-action. */
export function button(text, props = {}) {
  const node = el("button", { ...props, text }, []);
  node.type = "button";
  return node;
}

/** The canonical JSON of an action, as stored in data-action attributes. */
export function actionKey(action) {
  return JSON.stringify(action);
}
