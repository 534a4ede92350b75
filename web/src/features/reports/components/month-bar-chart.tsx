import { Chart, useChart } from '@chakra-ui/charts';
import { List, VisuallyHidden } from '@chakra-ui/react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';

export type MonthBar = { month: string; value: number; display?: string };

/**
 * One bar per month, drawn with Chakra's charts over recharts (docs/screens.md#reports). The chart is a picture; the
 * same figures are a list for screen readers, each item read as "month: value".
 */
export function MonthBarChart({
  bars,
  label,
  color = 'blue.solid',
  format,
}: {
  bars: MonthBar[];
  label: string;
  color?: string;
  format?: (value: number) => string;
}) {
  const chart = useChart({ data: bars, series: [{ name: 'value', color, label }] });
  return (
    <>
      <Chart.Root maxH="xs" chart={chart} aria-hidden inert>
        <BarChart responsive accessibilityLayer={false} data={chart.data} margin={{ left: 8, right: 8 }}>
          <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />
          <XAxis axisLine={false} tickLine={false} dataKey={chart.key('month')} />
          <YAxis axisLine={false} tickLine={false} width={72} tickFormatter={format} allowDecimals={false} />
          <Tooltip
            cursor={{ fill: chart.color('bg.muted') }}
            animationDuration={100}
            formatter={format ? (value) => format(Number(value)) : undefined}
            content={<Chart.Tooltip />}
          />
          {chart.series.map((item) => (
            <Bar
              key={item.name}
              isAnimationActive={false}
              dataKey={chart.key(item.name)}
              fill={chart.color(item.color)}
              radius={[4, 4, 0, 0]}
            />
          ))}
        </BarChart>
      </Chart.Root>
      <VisuallyHidden>
        <List.Root aria-label={label}>
          {bars.map((b) => (
            <List.Item key={b.month}>{`${b.month}: ${b.display ?? b.value}`}</List.Item>
          ))}
        </List.Root>
      </VisuallyHidden>
    </>
  );
}
