import type { AutosellReading } from "@bundler/shared";

/**
 * Each condition's input in words ("market cap 41.2 BNB of 60") and whether it is met; a
 * ladder's conditions carry their tier.
 */
export function RulesReading({ reading, testId }: { reading: AutosellReading; testId: string }) {
  return (
    <ul className="flex flex-col gap-0.5 text-xs">
      {reading.conditions.map((entry, index) => (
        <li
          // A reading's conditions come in the rule's order and have no id of their own.
          // biome-ignore lint/suspicious/noArrayIndexKey: the order is the identity.
          key={index}
          data-testid={testId}
          data-met={entry.met}
          className={entry.met ? "text-ok" : "text-dim"}
        >
          {entry.tier !== undefined && `Tier ${entry.tier + 1}: `}
          {entry.text}
          {entry.met ? " (met)" : " (not met)"}
        </li>
      ))}
    </ul>
  );
}
