// A one-button form post with the page's CSRF token and the page to come back to (`next`): the
// Accept and Decline of a challenge, in its notice (notify.js) and in the bell (bell.js).

/** A form posting `fields` to `action`, with one submit button saying `text`. */
export function postButton(action, text, className, csrf, fields = {}) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  const all = { csrfmiddlewaretoken: csrf, next: window.location.pathname, ...fields };
  for (const [name, value] of Object.entries(all)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  const button = document.createElement("button");
  button.type = "submit";
  button.className = className;
  button.textContent = text;
  form.append(button);
  return form;
}
