import { Link } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { Section } from "../../../components/ui/section.tsx";

const HOW_IT_WORKS = [
  "A wallet buys and sells the token instantly.",
  "Each sell creates a new wallet.",
  "Gas is calculated automatically.",
  "You choose the period and the speed.",
  "You can withdraw at any time.",
];

const COSTS = [
  ["Average buy", "$0.10 gas"],
  ["Token approval", "$0.30 gas"],
  ["Average sell", "$0.09 gas"],
  // Every bump lands as one bundle, which pays its builder (BUMPER_TIP_BNB, 0.0005 by default).
  ["Builder tip", "0.0005 BNB (about $0.30) a bump"],
] as const;

/** /tools: the Bumper, and the Comment Generator to come. */
export function ToolsPage() {
  return (
    <ContentLayout title="Other Tools">
      <div className="grid gap-6 md:grid-cols-2">
        <Section
          title="Bumper"
          aside={
            <Link to="/tools/bumper" className="text-accent hover:underline">
              [open bumper]
            </Link>
          }
        >
          <p className="text-sm text-dim">
            Keeps a token active with automatic, periodic buys and sells.
          </p>
          <div className="flex flex-col gap-2 text-sm">
            <h3 className="text-xs uppercase tracking-wide text-faint">How it works</h3>
            <ul className="flex list-inside list-disc flex-col gap-1 text-fg">
              {HOW_IT_WORKS.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
          <div className="flex flex-col gap-2 text-sm">
            <h3 className="text-xs uppercase tracking-wide text-faint">Costs</h3>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              {COSTS.map(([what, cost]) => (
                <div key={what} className="contents">
                  <dt className="text-dim">{what}</dt>
                  <dd className="tabular-nums text-fg">{cost}</dd>
                </div>
              ))}
            </dl>
          </div>
        </Section>
        <Section title="Comment Generator" aside={<span className="text-faint">coming soon</span>}>
          <p className="text-sm text-dim">Generates comments for your token's page.</p>
          <p className="text-sm text-fg">First 10 comments free, then $0.1 each.</p>
        </Section>
      </div>
    </ContentLayout>
  );
}
