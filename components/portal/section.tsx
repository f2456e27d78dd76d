import type { ReactNode } from "react";

/** A portal page section under its h2, which names it for assistive technology. */
export function Section({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
