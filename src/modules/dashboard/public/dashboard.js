// Progressive enhancement only: every page works without this file.
document.querySelectorAll('button[data-copy]').forEach((button) => {
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      button.textContent = button.dataset.copyFailed ?? 'Select and copy the key by hand';
    }
  });
});

// A form's select shows only the fields that apply to its choice (a destination's kind, a route's frequency);
// the others are disabled too, so a leftover value in a hidden field neither blocks nor rides along with the post.
document.querySelectorAll('select[data-toggles]').forEach((select) => {
  const fields = select.form.querySelectorAll('[data-when]');
  const apply = () => fields.forEach((field) => {
    const hidden = !field.dataset.when.split(' ').includes(select.value);
    field.hidden = hidden;
    field.querySelectorAll('input, textarea, select').forEach((control) => (control.disabled = hidden));
  });
  select.addEventListener('change', apply);
  apply();
});

// A daily digest's time zone starts as the browser's own rather than UTC, which the server cannot know.
document.querySelectorAll('input[data-browser-zone]').forEach((input) => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone) input.value = zone;
});
