/** While a request runs: a polite status text beside the buttons that started it. */
export function BusyNote({ shown, text }: { readonly shown: boolean; readonly text: string }) {
  if (!shown) return null;
  return (
    <span class="muted" role="status">
      {text}
    </span>
  );
}
