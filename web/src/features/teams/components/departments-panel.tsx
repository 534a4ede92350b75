import { Button, Card, Heading, HStack, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { LuPencil, LuPlus, LuTrash2 } from 'react-icons/lu';
import { DepartmentInputSchema, type Department } from '#shared/schemas/api/organisation.ts';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { createDepartment, deleteDepartment, updateDepartment } from '#web/features/teams/api/teams.ts';

/** Departments of the hospital (hospital admin): create, rename, describe, delete when empty, with their counts. */
export function DepartmentsPanel({ departments }: { departments: Department[] }) {
  const [editing, setEditing] = useState<Department | 'new'>();
  const remove = async (d: Department) => {
    try {
      await deleteDepartment(d.id);
      toaster.success({ title: 'Department deleted', description: d.name });
    } catch (e) {
      toaster.error({ title: 'Error', description: errorMessage(e) });
    }
  };
  return (
    <Card.Root>
      <Card.Header>
        <HStack justify="space-between">
          <Heading size="md">Departments</Heading>
          <Button size="sm" onClick={() => setEditing('new')}>
            <LuPlus /> Add Department
          </Button>
        </HStack>
      </Card.Header>
      <Card.Body>
        <DataTable
          aria-label="Departments"
          rows={departments}
          rowKey={(d) => d.id}
          rowProps={() => ({ 'data-testid': 'department-row' })}
          empty={<Text color="fg.muted">No departments yet. Add one to start creating teams.</Text>}
          columns={[
            { key: 'name', header: 'Name', cell: (d) => d.name, cellProps: { fontWeight: 'medium' } },
            { key: 'description', header: 'Description', cell: (d) => d.description, cellProps: { color: 'fg.muted' } },
            { key: 'teams', header: 'Teams', cell: (d) => d.teamCount },
            { key: 'members', header: 'Members', cell: (d) => d.memberCount },
            {
              key: 'actions',
              cell: (d) => {
                const empty = d.teamCount === 0 && d.memberCount === 0;
                return (
                  <HStack justify="end">
                    <Button size="xs" variant="ghost" aria-label={`Edit ${d.name}`} onClick={() => setEditing(d)}>
                      <LuPencil />
                    </Button>
                    <Button
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      aria-label={`Delete ${d.name}`}
                      title={empty ? undefined : 'Only a department without teams and members can be deleted'}
                      disabled={!empty}
                      onClick={() => remove(d)}
                    >
                      <LuTrash2 />
                    </Button>
                  </HStack>
                );
              },
            },
          ]}
        />
      </Card.Body>
      {editing && (
        <DepartmentDialog department={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      )}
    </Card.Root>
  );
}

function DepartmentDialog({ department, onClose }: { department?: Department; onClose(): void }) {
  const [name, setName] = useState(department?.name ?? '');
  const [description, setDescription] = useState(department?.description ?? '');
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const parsed = DepartmentInputSchema.safeParse({ name, description });
  const nameError =
    submitted && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === 'name')?.message : undefined;

  const save = async () => {
    setSubmitted(true);
    if (!parsed.success) return;
    setSaving(true);
    setError(undefined);
    try {
      if (department) await updateDepartment(department.id, parsed.data);
      else await createDepartment(parsed.data);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={department ? 'Edit Department' : 'Add Department'}
      footer={
        <HStack>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={saving}>
            {department ? 'Save Changes' : 'Add Department'}
          </Button>
        </HStack>
      }
    >
      <Stack gap="4">
        <FormField label="Department Name" required error={nameError}>
          <Input name="departmentName" value={name} onChange={(e) => setName(e.target.value)} />
        </FormField>
        <FormField label="Description">
          <Textarea
            name="departmentDescription"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </FormField>
        {error && <ErrorBox message={error} />}
      </Stack>
    </Modal>
  );
}
