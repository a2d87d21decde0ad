// A glossary term in a page written in React (the papers page, the start page): the same mark the
// lesson build writes for `[[text|id]]`, which the glossary tip finds by its data-term.
import type { ReactNode } from 'react';
import type { TermId } from '../../lessons/glossary';

export function Term({ id, children }: { id: TermId; children: ReactNode }) {
  return (
    <dfn className="term" data-term={id} tabIndex={0}>
      {children}
    </dfn>
  );
}
