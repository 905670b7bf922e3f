import { type ReactNode, useEffect } from 'react';

/** A page: its heading, named like its link, and the document's title to match. */
export function Page({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Device care`;
  }, [title]);
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
        {actions && <div className="actions">{actions}</div>}
      </div>
      {children}
    </>
  );
}
