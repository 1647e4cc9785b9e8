package io.deltacdf.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.testing.ConnectorConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The storage settings a user writes become the Hadoop settings each file system reads. */
class StorageSettingsTest {

  private static final String HOST = "lake.dfs.core.windows.net";

  private static DeltaCdfSourceConfig config(String... keyValues) {
    return new DeltaCdfSourceConfig(
        ConnectorConfig.forTables("abfss://c@lake.dfs.core.windows.net/t").with(keyValues).build());
  }

  @Test
  void staticS3KeysAndACustomEndpoint() {
    Map<String, String> hadoop =
        config(
                "s3.credentials", "static",
                "s3.access.key.id", "AKIA",
                "s3.secret.access.key", "s3cr3t",
                "s3.endpoint", "http://127.0.0.1:9000",
                "s3.path.style.access", "true",
                "s3.region", "eu-west-1")
            .stores()
            .hadoopSettings();
    assertThat(hadoop)
        .containsEntry("fs.s3a.access.key", "AKIA")
        .containsEntry("fs.s3a.secret.key", "s3cr3t")
        .containsEntry(
            "fs.s3a.aws.credentials.provider",
            "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider")
        .containsEntry("fs.s3a.endpoint", "http://127.0.0.1:9000")
        .containsEntry("fs.s3a.connection.ssl.enabled", "false")
        .containsEntry("fs.s3a.path.style.access", "true")
        .containsEntry("fs.s3a.endpoint.region", "eu-west-1");
  }

  @Test
  void assumedRoleAndTemporaryKeys() {
    assertThat(
            config("s3.credentials", "assumed-role", "s3.assumed.role.arn", "arn:aws:iam::1:role/r")
                .stores()
                .hadoopSettings())
        .containsEntry(
            "fs.s3a.aws.credentials.provider",
            "org.apache.hadoop.fs.s3a.auth.AssumedRoleCredentialProvider")
        .containsEntry("fs.s3a.assumed.role.arn", "arn:aws:iam::1:role/r");
    assertThat(
            config(
                    "s3.credentials", "static",
                    "s3.access.key.id", "ASIA",
                    "s3.secret.access.key", "s",
                    "s3.session.token", "tok")
                .stores()
                .hadoopSettings())
        .containsEntry(
            "fs.s3a.aws.credentials.provider",
            "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider")
        .containsEntry("fs.s3a.session.token", "tok");
  }

  @Test
  void azureCredentialsGoToTheHostOfEveryAbfsTableAndNoOther() {
    String onelake = "onelake.dfs.fabric.microsoft.com";
    String gov = "archive.dfs.core.usgovcloudapi.net";
    Map<String, String> hadoop =
        new DeltaCdfSourceConfig(
                ConnectorConfig.forTables(
                        "abfss://Sales@"
                            + onelake
                            + "/Shop.Lakehouse/Tables/dbo/orders,"
                            + "abfss://logs@"
                            + gov
                            + ":443/events,"
                            + "s3a://bucket/other")
                    .with("delta.tables.root", "abfs://c@eu.dfs.fabric.microsoft.com/root")
                    .with("azure.auth.type", "client-credentials")
                    .with("azure.oauth.client.id", "app")
                    .with("azure.oauth.client.secret", "pw")
                    .with("azure.oauth.tenant.id", "t1")
                    .with("azure.oauth.authority", "https://login.microsoftonline.us/")
                    .build())
            .stores()
            .hadoopSettings();

    for (String host : List.of(onelake, gov, "eu.dfs.fabric.microsoft.com")) {
      assertThat(hadoop)
          .containsEntry("fs.azure.account.auth.type." + host, "OAuth")
          .containsEntry("fs.azure.account.oauth2.client.secret." + host, "pw")
          .containsEntry(
              "fs.azure.account.oauth2.client.endpoint." + host,
              "https://login.microsoftonline.us/t1/oauth2/token");
    }
    assertThat(hadoop.entrySet())
        .as("the secret goes to the three Azure hosts only")
        .filteredOn(e -> e.getValue().equals("pw"))
        .hasSize(3);
    assertThat(
            new DeltaCdfSourceConfig(
                    ConnectorConfig.forTables("abfss://Sales@" + onelake + "/x")
                        .with("azure.auth.type", "managed-identity")
                        .build())
                .crossFieldProblems())
        .as("no account name needed when the tables name their hosts")
        .isEmpty();
  }

  @Test
  void everyAzureAuthenticationType() {
    assertThat(
            config("azure.account.name", "lake", "azure.account.key", "a2V5")
                .stores()
                .hadoopSettings())
        .containsEntry("fs.azure.account.auth.type." + HOST, "SharedKey")
        .containsEntry("fs.azure.account.key." + HOST, "a2V5");
    assertThat(
            config(
                    "azure.account.name",
                    "lake",
                    "azure.auth.type",
                    "sas",
                    "azure.sas.token",
                    "sv=1")
                .stores()
                .hadoopSettings())
        .containsEntry("fs.azure.account.auth.type." + HOST, "SAS")
        .containsEntry("fs.azure.sas.fixed.token." + HOST, "sv=1");
    assertThat(
            config(
                    "azure.account.name", "lake",
                    "azure.auth.type", "client-credentials",
                    "azure.oauth.client.id", "app",
                    "azure.oauth.client.secret", "pw",
                    "azure.oauth.tenant.id", "t1")
                .stores()
                .hadoopSettings())
        .containsEntry("fs.azure.account.auth.type." + HOST, "OAuth")
        .containsEntry(
            "fs.azure.account.oauth.provider.type." + HOST,
            "org.apache.hadoop.fs.azurebfs.oauth2.ClientCredsTokenProvider")
        .containsEntry(
            "fs.azure.account.oauth2.client.endpoint." + HOST,
            "https://login.microsoftonline.com/t1/oauth2/token")
        .containsEntry("fs.azure.account.oauth2.client.secret." + HOST, "pw");
    assertThat(
            config("azure.account.name", "lake", "azure.auth.type", "managed-identity")
                .stores()
                .hadoopSettings())
        .containsEntry(
            "fs.azure.account.oauth.provider.type." + HOST,
            "org.apache.hadoop.fs.azurebfs.oauth2.MsiTokenProvider");
    assertThat(
            config(
                    "azure.account.name", "lake",
                    "azure.auth.type", "workload-identity",
                    "azure.oauth.client.id", "app",
                    "azure.oauth.tenant.id", "t1",
                    "azure.workload.identity.token.file", "/var/run/token")
                .stores()
                .hadoopSettings())
        .containsEntry(
            "fs.azure.account.oauth.provider.type." + HOST,
            "org.apache.hadoop.fs.azurebfs.oauth2.WorkloadIdentityTokenProvider")
        .containsEntry("fs.azure.account.oauth2.token.file." + HOST, "/var/run/token");
  }

  @Test
  void emulatorEndpointsTurnTlsOff() {
    assertThat(
            config(
                    "azure.account.name", "lake",
                    "azure.account.key", "k3y!",
                    "azure.endpoint", "http://127.0.0.1:10000")
                .stores()
                .hadoopSettings())
        .containsEntry("fs.azure.abfs.endpoint", "127.0.0.1:10000")
        .containsEntry("fs.azure.always.use.https", "false")
        .containsEntry("fs.azure.networking.library", "JDK_HTTP_URL_CONNECTION");
  }

  @Test
  void gcsKeyFilesAndRawHadoopSettingsWin() {
    Map<String, String> hadoop =
        config(
                "gcs.auth.type", "service-account-keyfile",
                "gcs.keyfile.path", "/etc/gcs.json",
                "hadoop.fs.gs.project.id", "p1")
            .stores()
            .hadoopSettings();
    assertThat(hadoop)
        .containsEntry("fs.gs.auth.type", "SERVICE_ACCOUNT_JSON_KEYFILE")
        .containsEntry("fs.gs.auth.service.account.json.keyfile", "/etc/gcs.json")
        .containsEntry("fs.gs.project.id", "p1");
  }

  @Test
  void missingCredentialsLandOnTheirKeys() {
    assertThat(config("s3.credentials", "static").crossFieldProblems())
        .containsKeys("s3.access.key.id", "s3.secret.access.key");
    assertThat(
            config("azure.account.name", "lake", "azure.auth.type", "client-credentials")
                .crossFieldProblems())
        .containsKeys(
            "azure.oauth.client.id", "azure.oauth.client.secret", "azure.oauth.tenant.id");
    assertThat(
            new DeltaCdfSourceConfig(
                    ConnectorConfig.forTables("s3a://b/t").with("azure.account.key", "k").build())
                .crossFieldProblems())
        .as("no abfs table names a host")
        .containsKey("azure.account.name");
    assertThat(config("gcs.auth.type", "service-account-keyfile").crossFieldProblems())
        .containsKey("gcs.keyfile.path");
  }

  @Test
  void secretsAreMaskedAndAccessErrorsPointAtTheCredential() {
    DeltaCdfSourceConfig config =
        config("azure.account.name", "lake", "azure.account.key", "sup3r-secret");
    assertThat(config.getPassword("azure.account.key").toString()).doesNotContain("sup3r-secret");
    assertThat(config.secretValues()).containsExactly("sup3r-secret");
    assertThat(
            config("hadoop.fs.s3a.secret.key", "raw-s3cr3t", "hadoop.fs.s3a.endpoint", "e")
                .secretValues())
        .containsExactly("raw-s3cr3t");
    assertThat(
            config(
                    "topic.check.admin.sasl.jaas.config", "ScramLoginModule password=\"pw1\";",
                    "topic.check.admin.security.protocol", "SASL_SSL")
                .secretValues())
        .containsExactly("ScramLoginModule password=\"pw1\";");
    assertThat(config.stores().credentialSettingFor("abfss://c@lake.dfs.core.windows.net/t"))
        .isEqualTo("azure.account.key");
    assertThat(config.stores().credentialSettingFor("s3a://b/t")).isEqualTo("s3.credentials");
    assertThat(config.stores().credentialSettingFor("/local/t")).isNull();
  }

  @Test
  void accountsWithTheirOwnKeysOrTokensWinForTheirHosts() {
    String key = java.util.Base64.getEncoder().encodeToString(new byte[] {1, 2, 3});
    DeltaCdfSourceConfig config =
        config(
            "azure.auth.type", "client-credentials",
            "azure.oauth.client.id", "app",
            "azure.oauth.client.secret", "app-secret",
            "azure.oauth.tenant.id", "t",
            "azure.account.keys", "lake:" + key + "; onelake.dfs.fabric.microsoft.com:" + key,
            "azure.sas.tokens", "archive:sv=2020-12-06&sp=rl&sig=abc%3D");
    Map<String, String> hadoop = config.stores().hadoopSettings();
    assertThat(hadoop)
        .containsEntry("fs.azure.account.auth.type." + HOST, "SharedKey")
        .containsEntry("fs.azure.account.key." + HOST, key)
        .containsEntry("fs.azure.account.key.onelake.dfs.fabric.microsoft.com", key)
        .containsEntry("fs.azure.account.auth.type.archive.dfs.core.windows.net", "SAS")
        .containsEntry(
            "fs.azure.sas.fixed.token.archive.dfs.core.windows.net",
            "sv=2020-12-06&sp=rl&sig=abc%3D");
    assertThat(config.stores().credentialSettingFor("abfss://c@lake.dfs.core.windows.net/t"))
        .isEqualTo("azure.account.keys");
    assertThat(config.stores().credentialSettingFor("abfss://c@archive.dfs.core.windows.net/t"))
        .isEqualTo("azure.sas.tokens");
    assertThat(config.stores().credentialSettingFor("abfss://c@other.dfs.core.windows.net/t"))
        .isEqualTo("azure.oauth.client.secret");
    assertThat(config.secretValues()).contains(key, "sv=2020-12-06&sp=rl&sig=abc%3D");
    assertThat(config.crossFieldProblems()).isEmpty();
  }

  @Test
  void aBadAccountEntryIsNamedByItsPlaceNotItsSecret() {
    Map<String, List<String>> problems =
        config("azure.account.keys", "lake:not-base64!;just-a-secret;lake:AAAA")
            .crossFieldProblems();
    assertThat(problems.get("azure.account.keys"))
        .containsExactly(
            "The key of entry 1 (lake.dfs.core.windows.net) is not base64, as account keys are",
            "Entry 2 is not <account>:<secret>",
            "Entry 3 names lake.dfs.core.windows.net a second time");
    assertThat(problems.toString()).doesNotContain("not-base64!").doesNotContain("just-a-secret");
  }
}
