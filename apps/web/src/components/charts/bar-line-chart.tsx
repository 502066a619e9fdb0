import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

// The theme's colours (index.css), which recharts needs as values rather than classes.
export const CHART_COLORS = {
  green: "#3fd17a",
  gold: "#f0b90b",
  grid: "#222a28",
  text: "#8a9692",
  panel: "#151a19",
} as const;

/** One series on its own axis: bars or a line. */
export interface ChartSeries<Point> {
  key: keyof Point & string;
  name: string;
  kind: "bar" | "line";
  color: string;
  /** The axis's width in pixels (room for its tick labels). */
  axisWidth: number;
  tickFormat?: (value: number) => string;
  integers?: boolean;
}

/**
 * Two series over the same x labels, one on the left axis and one on the right (e.g. launches
 * as bars and revenue as a line): the app's charts, drawn by recharts.
 */
export function BarLineChart<Point extends { label: string }>({
  data,
  left,
  right,
  testId,
  heightClass,
  maxBarSize,
  minTickGap,
}: {
  data: Point[];
  left: ChartSeries<Point>;
  right: ChartSeries<Point>;
  testId: string;
  heightClass: string;
  maxBarSize: number;
  minTickGap?: number;
}) {
  const series = [
    ["left", left],
    ["right", right],
  ] as const;
  return (
    <div className={`${heightClass} w-full`} data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 0, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={CHART_COLORS.grid} vertical={false} />
          <XAxis
            dataKey="label"
            stroke={CHART_COLORS.text}
            tick={{ fontSize: 10 }}
            minTickGap={minTickGap}
          />
          {series.map(([side, one]) => (
            <YAxis
              key={side}
              yAxisId={side}
              orientation={side}
              stroke={CHART_COLORS.text}
              tick={{ fontSize: 10 }}
              tickFormatter={one.tickFormat}
              allowDecimals={!one.integers}
              width={one.axisWidth}
            />
          ))}
          <Tooltip
            contentStyle={{
              background: CHART_COLORS.panel,
              border: `1px solid ${CHART_COLORS.grid}`,
            }}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {series.map(([side, one]) =>
            one.kind === "bar" ? (
              <Bar
                key={side}
                yAxisId={side}
                dataKey={one.key as string}
                name={one.name}
                fill={one.color}
                fillOpacity={0.55}
                maxBarSize={maxBarSize}
                isAnimationActive={false}
              />
            ) : (
              <Line
                key={side}
                yAxisId={side}
                dataKey={one.key as string}
                name={one.name}
                stroke={one.color}
                dot={false}
                isAnimationActive={false}
              />
            ),
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
