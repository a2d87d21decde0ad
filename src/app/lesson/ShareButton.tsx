// Share: copies a link holding the page's whole state (permalink.ts) and shows it, selected, in
// case the clipboard is refused (an insecure origin, a denied permission).
import { useState } from 'react';
import type { ControlValues } from '../../lessons/controls';
import { permalink, shareQuery } from '../permalink';
import { parseRoute, SHELL_PARAMS } from '../route';
import './lessonTools.css';

export function ShareButton({
  values,
  pageParams,
}: {
  values: ControlValues;
  /** The page's parameters besides its controls. */
  pageParams: readonly string[];
}) {
  const [shared, setShared] = useState<{ url: string; copied: boolean } | null>(null);
  const share = async () => {
    const route = parseRoute(location.hash);
    const known = [...pageParams, ...SHELL_PARAMS];
    const url = permalink(location, route.path, shareQuery(route.query, values, known));
    const copied = await navigator.clipboard.writeText(url).then(
      () => true,
      () => false,
    );
    setShared({ url, copied });
  };
  return (
    <span className="share">
      <button className="quiet" data-testid="share" onClick={share}>
        Share
      </button>
      {shared && (
        <span role="status" className="share-status">
          {shared.copied ? 'Link copied: ' : 'Copy this link: '}
          <input
            readOnly
            value={shared.url}
            data-testid="share-url"
            aria-label="Link to this page as it is now"
            onFocus={(e) => e.target.select()}
            size={Math.min(60, shared.url.length)}
          />
        </span>
      )}
    </span>
  );
}
