import { Button, Heading, HStack, Input, InputGroup, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { LuFilter, LuHospital, LuPlus, LuSearch } from 'react-icons/lu';
import {
  PLAN_LABELS,
  SUBSCRIPTION_PLANS,
  type Hospital,
  type HospitalStatus,
  type SubscriptionPlan,
} from '#shared/schemas/api/organisation.ts';
import type { Job } from '#shared/schemas/api/jobs.ts';
import { CursorPager } from '#web/components/ui/cursor-pager.tsx';
import { JobProgress } from '#web/components/ui/job-progress.tsx';
import { followJob } from '#web/lib/jobs.ts';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { StatCard } from '#web/components/ui/stat-card.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { useCursorStack } from '#web/lib/use-cursor-stack.ts';
import { useDebouncedValue } from '#web/lib/use-debounced-value.ts';
import {
  createHospital,
  deleteHospital,
  restoreHospital,
  updateHospital,
  useHospitals,
} from '#web/features/hospitals/api/hospitals.ts';
import { AddHospitalWizard } from '#web/features/hospitals/components/add-hospital-wizard.tsx';
import { DeleteHospitalDialog } from '#web/features/hospitals/components/delete-hospital-dialog.tsx';
import { EditHospitalDialog } from '#web/features/hospitals/components/edit-hospital-dialog.tsx';
import { HospitalCard } from '#web/features/hospitals/components/hospital-card.tsx';
import {
  hospitalListQuery,
  NO_HOSPITAL_FILTERS,
  type HospitalFilters,
} from '#web/features/hospitals/utils/hospital-query.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Hospital Management (super admin, docs/screens.md#hospital-management). */
export function HospitalManagement() {
  // The top bar's search arrives as ?search= (docs/screens.md#authenticated-shell), also while the page is open.
  const [params] = useSearchParams();
  const searched = params.get('search') ?? '';
  const [filters, setFilters] = useState<HospitalFilters>({ ...NO_HOSPITAL_FILTERS, search: searched });
  useEffect(() => setFilters((f) => ({ ...f, search: searched })), [searched]);
  const [showFilters, setShowFilters] = useState(false);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Hospital>();
  const [deleting, setDeleting] = useState<Hospital>();
  const search = useDebouncedValue(filters.search);
  const effective = { ...filters, search };
  const cursor = useCursorStack(JSON.stringify(effective));
  const { data, error, isLoading } = useHospitals(hospitalListQuery(effective, cursor.token));

  // The identities and DICOMweb clients follow a deactivation or restore in a job (docs/jobs.md); its progress shows.
  const [jobs, setJobs] = useState<{ label: string; job: Job }[]>([]);
  const track = (label: string, job: Job) => {
    const show = (next: Job) =>
      setJobs((all) => [{ label, job: next }, ...all.filter((j) => j.job.id !== next.id)].slice(0, 3));
    void followJob(job, show).catch(() => undefined);
  };

  const restore = async (h: Hospital) => {
    try {
      const restored = await restoreHospital(h.id);
      toaster.success({ title: 'Hospital restored', description: h.name });
      track(`Restoring ${h.name}`, restored.job);
    } catch (e) {
      toaster.error({ title: 'Error', description: errorMessage(e) });
    }
  };

  return (
    <Stack gap="6">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Stack gap="1">
          <Heading size="2xl">Hospital Management</Heading>
          <Text color="fg.muted">Manage hospitals, their subscriptions and their administrators.</Text>
        </Stack>
        <Button onClick={() => setAdding(true)}>
          <LuPlus /> Add Hospital
        </Button>
      </HStack>
      {data && (
        <SimpleGrid columns={{ base: 2, md: 4 }} gap="4">
          <StatCard label="Total Hospitals" value={data.summary.totalHospitals} testId="summary-total-hospitals" />
          <StatCard
            label="Active Subscriptions"
            value={data.summary.activeSubscriptions}
            testId="summary-active-subscriptions"
          />
          <StatCard label="Total Users" value={data.summary.totalUsers} testId="summary-total-users" />
          <StatCard
            label="Monthly Revenue"
            value={money.format(data.summary.monthlyRevenue)}
            testId="summary-monthly-revenue"
          />
        </SimpleGrid>
      )}
      <Stack gap="3">
        <HStack gap="3">
          <InputGroup startElement={<LuSearch />} flex="1">
            <Input
              placeholder="Search hospitals by name or city"
              aria-label="Search hospitals"
              value={filters.search}
              onChange={(e) => setFilters({ ...filters, search: e.target.value })}
            />
          </InputGroup>
          <Button variant="outline" onClick={() => setShowFilters((s) => !s)} aria-expanded={showFilters}>
            <LuFilter /> Filters
          </Button>
        </HStack>
        {showFilters && (
          <HStack gap="3" wrap="wrap">
            <Select
              aria-label="Plan"
              width="48"
              value={filters.plan}
              placeholder="All plans"
              onChange={(v) => setFilters({ ...filters, plan: v as SubscriptionPlan | '' })}
              options={SUBSCRIPTION_PLANS.map((p) => ({ value: p, label: PLAN_LABELS[p].name }))}
            />
            <Select
              aria-label="Status"
              width="48"
              value={filters.status}
              placeholder="All statuses"
              onChange={(v) => setFilters({ ...filters, status: v as HospitalStatus | '' })}
              options={[
                { value: 'ACTIVE', label: 'Active' },
                { value: 'DEACTIVATED', label: 'Deactivated' },
              ]}
            />
          </HStack>
        )}
      </Stack>
      {jobs.length > 0 && (
        <Stack gap="3" aria-live="polite">
          {jobs.map(({ label, job }) => (
            <JobProgress key={job.id} job={job} label={label} />
          ))}
        </Stack>
      )}
      {error && <ErrorBox message={errorMessage(error)} />}
      {isLoading && !data && <PageSpinner />}
      {data && data.items.length === 0 && <EmptyBlock icon={<LuHospital />} title="No hospitals found" />}
      {data && data.items.length > 0 && (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
          {data.items.map((h) => (
            <HospitalCard
              key={h.id}
              hospital={h}
              onEdit={() => setEditing(h)}
              onDelete={() => setDeleting(h)}
              onRestore={() => restore(h)}
            />
          ))}
        </SimpleGrid>
      )}
      <CursorPager
        page={cursor.page}
        hasPrevious={cursor.hasPrevious}
        hasNext={!!data?.nextToken}
        onPrevious={cursor.previous}
        onNext={() => cursor.next(data?.nextToken)}
        total={data?.total}
      />
      <AddHospitalWizard
        open={adding}
        onClose={() => setAdding(false)}
        onCreate={async (request) => {
          const h = await createHospital(request);
          toaster.success({
            title: 'Hospital created',
            description: `${h.name}: ${request.adminEmail} is invited as its admin`,
          });
        }}
      />
      {editing && (
        <EditHospitalDialog
          hospital={editing}
          onClose={() => setEditing(undefined)}
          onSave={(r) => updateHospital(editing.id, r)}
        />
      )}
      {deleting && (
        <DeleteHospitalDialog
          hospital={deleting}
          onClose={() => setDeleting(undefined)}
          onDelete={async (r) => {
            const deleted = await deleteHospital(deleting.id, r);
            track(`Deactivating ${deleted.name}`, deleted.job);
            return deleted;
          }}
        />
      )}
    </Stack>
  );
}
