# The DICOM listener (C-STORE SCP) of docs/dicom-intake.md: the repository's TypeScript run by tsx, as `npm start` runs
# the twin. Built from the repository root by the DicomListenerStack's image asset.
FROM public.ecr.aws/docker/library/node:22-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY shared ./shared
COPY functions ./functions
USER node
EXPOSE 11112
CMD ["node", "--import", "tsx", "functions/dicom-listener/main.ts"]
