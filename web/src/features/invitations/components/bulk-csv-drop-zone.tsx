import { Alert, Box, Stack, Text } from '@chakra-ui/react';
import { useState, type DragEvent, type RefObject } from 'react';
import { LuUpload } from 'react-icons/lu';
import { BULK_CSV_MAX_BYTES } from '#shared/schemas/api/invitations.ts';
import { CSV_ACCEPT } from '#web/features/invitations/utils/invitation-csv.ts';

type Props = {
  /** The file read last, named in the zone. */
  fileName: string | undefined;
  /** The file's problems (or the drop's: several files, not a CSV, too large). */
  errors: string[];
  inputRef: RefObject<HTMLInputElement | null>;
  onFiles(files: File[]): void;
};

/** The CSV of Bulk Invitations, dropped on the zone or chosen by clicking it, and what was wrong with it. */
export function BulkCsvDropZone({ fileName, errors, inputRef, onFiles }: Props) {
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    onFiles([...event.dataTransfer.files]);
  };
  return (
    <>
      <Box
        borderWidth="2px"
        borderStyle="dashed"
        rounded="md"
        p="6"
        textAlign="center"
        bg={dragging ? 'bg.muted' : undefined}
        cursor="pointer"
        role="button"
        tabIndex={0}
        aria-label="Upload CSV"
        onClick={() => inputRef.current?.click()}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && inputRef.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Stack align="center" gap="1">
          <LuUpload aria-hidden />
          <Text>{fileName ?? 'Drag and drop a CSV file here, or click to choose one'}</Text>
          <Text fontSize="sm" color="fg.muted">
            CSV only, up to {BULK_CSV_MAX_BYTES / 1024 / 1024}MB. Columns: name, email, role, department, team
            (specialization optional).
          </Text>
        </Stack>
        <input
          ref={inputRef}
          type="file"
          accept={`${CSV_ACCEPT.extension},${CSV_ACCEPT.mime}`}
          hidden
          data-testid="csv-input"
          onChange={(e) => onFiles([...(e.target.files ?? [])])}
        />
      </Box>
      {errors.length > 0 && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>CSV Errors</Alert.Title>
            <Alert.Description>
              <Stack gap="0">
                {errors.map((e) => (
                  <Text key={e}>{e}</Text>
                ))}
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </>
  );
}
