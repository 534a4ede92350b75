import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useRef, useState, type DragEvent } from 'react';
import { LuFolderOpen, LuUpload } from 'react-icons/lu';
import {
  filesFromDataTransfer,
  isIgnorable,
  pickedPath,
  type PickedFile,
} from '#web/features/uploads/utils/discover-files.ts';

type Props = { onPicked(files: PickedFile[]): void; disabled?: boolean; analyzing?: boolean; accept?: string };

/** Files or whole folders, by drag-and-drop or by the pickers (folder picking uses webkitdirectory). */
export function FilePicker({ onPicked, disabled, analyzing, accept }: Props) {
  const filesRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const fromInput = (list: FileList | null) => {
    if (!list) return;
    onPicked(
      Array.from(list)
        .map((file) => ({ path: pickedPath(file), file }))
        .filter((p) => !isIgnorable(p.path)),
    );
  };
  const onDrop = async (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const picked = await filesFromDataTransfer(event.dataTransfer.items);
    onPicked(picked.filter((p) => !isIgnorable(p.path)));
  };

  return (
    <Box
      borderWidth="2px"
      borderStyle="dashed"
      borderColor={dragging ? 'blue.solid' : 'border'}
      bg={dragging ? 'blue.subtle' : 'bg.subtle'}
      rounded="lg"
      p="8"
      textAlign="center"
      data-state={analyzing ? 'analyzing' : dragging ? 'dragging' : 'idle'}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => void onDrop(e)}
    >
      <Stack align="center" gap="3">
        <LuUpload size="32" aria-hidden />
        <Text fontWeight="medium">
          {analyzing ? 'Analyzing files...' : 'Drag and drop DICOM files or a whole study folder here'}
        </Text>
        <HStack>
          <Button variant="outline" size="sm" disabled={disabled} onClick={() => filesRef.current?.click()}>
            <LuUpload /> Browse Files
          </Button>
          <Button variant="outline" size="sm" disabled={disabled} onClick={() => folderRef.current?.click()}>
            <LuFolderOpen /> Choose Folder
          </Button>
        </HStack>
      </Stack>
      <input
        ref={filesRef}
        type="file"
        multiple
        hidden
        accept={accept}
        data-testid="file-input"
        onChange={(e) => {
          fromInput(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
      <input
        ref={(el) => {
          folderRef.current = el;
          el?.setAttribute('webkitdirectory', '');
          el?.setAttribute('directory', '');
        }}
        type="file"
        multiple
        hidden
        data-testid="folder-input"
        onChange={(e) => {
          fromInput(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
    </Box>
  );
}
