// The session files product (docs/files.md), as routes, the dashboard and MCP reach it.
export {
  deleteFile,
  keepUpload,
  listFiles,
  readFile,
  readFileBytes,
  toFileObject,
  uploadFile,
  uploadFileBytes,
  type FileCaller,
  type FileObject,
} from "@/lib/computers/files/files-service";
export { fileResponse } from "@/lib/computers/files/file-response";
export { uploadFieldsSchema } from "@/lib/computers/files/upload-fields";
export { startFileReaper, reapExpiredFiles } from "@/lib/computers/files/file-reaper";
