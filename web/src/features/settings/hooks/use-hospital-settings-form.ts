import { useEffect, useMemo, useReducer, useState } from 'react';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import {
  saveDeidentificationPolicy,
  saveHospitalSettings,
  saveMyNotificationPreferences,
  useDeidentificationPolicy,
  useHospitalSettings,
  useMyNotificationPreferences,
} from '#web/features/settings/api/hospital-settings-api.ts';
import {
  hasUnsavedChanges,
  profileErrors,
  savedSettingsDraft,
  settingsReducer,
} from '#web/features/settings/utils/settings-form.ts';

/**
 * The hospital settings form (docs/screens.md#hospital-settings-page): the profile, the hospital policy, the
 * de-identification policy and the admin's notification preferences, loaded together into one draft and saved
 * together. `save` answers false, saving nothing, while the profile has errors (they show from then on).
 */
export function useHospitalSettingsForm() {
  const settings = useHospitalSettings();
  const deid = useDeidentificationPolicy();
  const preferences = useMyNotificationPreferences();
  const [state, dispatch] = useReducer(settingsReducer, undefined);
  const [saving, setSaving] = useState(false);
  const [showErrors, setShowErrors] = useState(false);

  useEffect(() => {
    if (!settings.data || !deid.data || !preferences.data) return;
    dispatch({ type: 'loaded', value: savedSettingsDraft(settings.data, deid.data, preferences.data) });
  }, [settings.data, deid.data, preferences.data]);

  const errors = useMemo(() => (state ? profileErrors(state.draft.profile) : {}), [state]);

  async function save(): Promise<boolean> {
    setShowErrors(true);
    if (!state) return true;
    if (Object.keys(profileErrors(state.draft.profile)).length > 0) return false;
    setSaving(true);
    try {
      const saved = await saveHospitalSettings({ profile: state.draft.profile, policy: state.draft.policy });
      const savedDeid = await saveDeidentificationPolicy(state.draft.deidentification);
      const savedPreferences = await saveMyNotificationPreferences(state.draft.notifications);
      await Promise.all([
        settings.mutate(saved, { revalidate: false }),
        deid.mutate(savedDeid, { revalidate: false }),
        preferences.mutate(savedPreferences, { revalidate: false }),
      ]);
      dispatch({ type: 'loaded', value: savedSettingsDraft(saved, savedDeid, savedPreferences) });
      toaster.create({ type: 'success', title: 'Settings saved' });
    } catch (error) {
      toaster.create({ type: 'error', title: 'Error', description: errorMessage(error) });
    } finally {
      setSaving(false);
    }
    return true;
  }

  return {
    loadError: settings.error ?? deid.error ?? preferences.error,
    /** Undefined until all three are loaded. */
    state,
    settings: settings.data,
    dispatch,
    dirty: state ? hasUnsavedChanges(state) : false,
    errors,
    showErrors,
    saving,
    save,
  };
}
