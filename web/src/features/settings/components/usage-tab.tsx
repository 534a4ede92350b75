import { Input, Text } from '@chakra-ui/react';
import { THRESHOLD_MIN } from '#shared/schemas/api/policies.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { formatBytes, gbToTb, storagePercent } from '#web/lib/format.ts';
import { numberOr, withCritical, withWarning } from '#web/features/settings/utils/settings-form.ts';
import { PercentSlider, SettingsTab, type PolicyTabProps } from './settings-controls.tsx';

/** Usage: storage used against the cap, the cap and queue concurrency (within the system maximums), the alerts. */
export function UsageTab({ policy, system, change, storageUsedBytes }: PolicyTabProps & { storageUsedBytes: number }) {
  return (
    <SettingsTab value="usage" gap="5">
      <Text>
        {formatBytes(storageUsedBytes)} used of {gbToTb(policy.storageCompute.storageCapGB)} TB (
        {storagePercent(storageUsedBytes, policy.storageCompute.storageCapGB)}%)
      </Text>
      <FormField
        label="Storage cap (GB)"
        helperText={`${gbToTb(policy.storageCompute.storageCapGB)} TB · system maximum ${gbToTb(system.storageCompute.storageCapGB)} TB`}
      >
        <Input
          type="number"
          min={1}
          max={system.storageCompute.storageCapGB}
          value={policy.storageCompute.storageCapGB}
          onChange={(e) => {
            const storageCapGB = numberOr(e.currentTarget.value, policy.storageCompute.storageCapGB);
            change((p) => ({ ...p, storageCompute: { ...p.storageCompute, storageCapGB } }));
          }}
        />
      </FormField>
      <FormField
        label="Queue concurrency"
        helperText={`System maximum ${system.storageCompute.computeThrottles.queueConcurrency}`}
      >
        <Input
          type="number"
          min={1}
          max={system.storageCompute.computeThrottles.queueConcurrency}
          value={policy.storageCompute.computeThrottles.queueConcurrency}
          onChange={(e) => {
            const queueConcurrency = numberOr(
              e.currentTarget.value,
              policy.storageCompute.computeThrottles.queueConcurrency,
            );
            change((p) => ({
              ...p,
              storageCompute: { ...p.storageCompute, computeThrottles: { queueConcurrency } },
            }));
          }}
        />
      </FormField>
      <PercentSlider
        label="Warning threshold"
        value={policy.storageCompute.alertThresholds.warning}
        min={THRESHOLD_MIN}
        onChange={(v) => change((p) => withWarning(p, v))}
      />
      <PercentSlider
        label="Critical threshold"
        value={policy.storageCompute.alertThresholds.critical}
        min={policy.storageCompute.alertThresholds.warning}
        onChange={(v) => change((p) => withCritical(p, v))}
      />
    </SettingsTab>
  );
}
