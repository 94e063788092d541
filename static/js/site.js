// What every page does (templates/base.html). Modules, never inline handlers: the
// Content-Security-Policy allows scripts from the site's files only
// (config/content_security_policy.py).

// The language selector at the foot sends its form as soon as a language is picked (without a
// script, its button does).
const language = document.getElementById("language-select");
if (language) language.addEventListener("change", () => language.form.submit());

// A read-only field to copy (the invite link) selects its whole text when focused.
for (const field of document.querySelectorAll("input[data-select-on-focus]")) {
  field.addEventListener("focus", () => field.select());
}
