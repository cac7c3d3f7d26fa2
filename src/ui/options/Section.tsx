import type { ComponentChildren } from 'preact';

/** A section of the page: a landmark named by its heading, which takes the focus when the section is shown. */
export function Section({ id, title, children }: { readonly id: string; readonly title: string; readonly children: ComponentChildren }) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} class="card section">
      <h2 id={headingId} tabIndex={-1}>
        {title}
      </h2>
      {children}
    </section>
  );
}
