/** Where uploads go when they go to a bucket: read from the environment by app-config.ts, used by files/file-storage.ts. */
export interface S3Settings {
  bucket: string;
  /** For S3-compatible servers (MinIO, Ceph, R2…); unset for AWS itself. */
  endpoint?: string;
  region: string;
  /** Key prefix inside the bucket, e.g. "uploads/". */
  prefix: string;
  /** Path-style URLs (http://host/bucket/key), which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's default chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}
