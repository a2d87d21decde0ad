// ClaimsList: every checked claim of a lesson with the numbers it was checked with, in a closed
// <details> at the end of the page. A ✓ sentence shows the same numbers as its title on hover,
// which a keyboard or a screen reader cannot reach; this list is one Tab stop that can.
import type { CheckedClaim } from '../../lessons/claims';

export function ClaimsList({ claims }: { claims: CheckedClaim[] }) {
  if (claims.length === 0) return null;
  return (
    <details className="claims-list" data-testid="claims-list">
      <summary>The {claims.length} checked claims (✓) and their numbers</summary>
      <ul>
        {claims.map((c) => (
          <li key={c.id} data-claim={c.id}>
            {c.says}
            <ul>
              {c.evidence.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </details>
  );
}
