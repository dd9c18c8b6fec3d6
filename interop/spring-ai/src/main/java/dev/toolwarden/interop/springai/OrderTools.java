package dev.toolwarden.interop.springai;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/**
 * The article's tools, each counting how often Spring AI called it, so the run's JSON line can say what
 * really executed (the provider only sees what the app sent back).
 */
public class OrderTools {

  /**
   * What {@link #readDeploymentConfig()} returns: secrets shaped like an OpenAI key and an AWS access key
   * id (fixtures, not real keys). The interop test asserts they reach the provider directly and never
   * through the gateway.
   */
  static final String DEPLOYMENT_CONFIG =
      "{\"region\":\"eu-west-1\",\"aws_access_key_id\":\"AKIAZ7Q3LMN4RT8VXW2Y\","
          + "\"openai_api_key\":\"sk-live-9fQ2xW7bN4mK8pL3rT6vY1zA5cD0eF\"}";

  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

  private int count(String tool) {
    return calls.computeIfAbsent(tool, name -> new AtomicInteger()).incrementAndGet();
  }

  /** Calls per tool so far, every tool named (0 when never called), in name order. */
  public Map<String, Integer> callCounts() {
    Map<String, Integer> counts = new TreeMap<>();
    for (String tool :
        new String[] {"echo", "noArgs", "explode", "counted", "queryOrderStatus", "readDeploymentConfig"}) {
      AtomicInteger n = calls.get(tool);
      counts.put(tool, n == null ? 0 : n.get());
    }
    return counts;
  }

  @Tool(description = "Echo the given text back unchanged.")
  public String echo(@ToolParam(description = "The text to echo") String text) {
    count("echo");
    return text;
  }

  @Tool(description = "A tool that takes no arguments and answers pong.")
  public String noArgs() {
    count("noArgs");
    return "pong";
  }

  @Tool(description = "Always fails: throws an exception with the given reason.")
  public String explode(@ToolParam(description = "Why it fails") String reason) {
    count("explode");
    throw new IllegalStateException("explode failed: " + reason);
  }

  @Tool(description = "Counts how many times it has been called and returns that number.")
  public int counted() {
    return count("counted");
  }

  // The description promises SUCCESS or FAILED; the result says PAID. A model told one thing and shown
  // another keeps asking: the article's loop.
  @Tool(
      description =
          "Query the payment status of an order. Returns SUCCESS when the order is paid or FAILED when"
              + " the payment failed.")
  public String queryOrderStatus(@ToolParam(description = "The order id, e.g. A-1") String orderId) {
    count("queryOrderStatus");
    return "{\"code\":0,\"data\":{\"state\":\"PAID\"}}";
  }

  @Tool(description = "Read the deployment configuration of the order service.")
  public String readDeploymentConfig() {
    count("readDeploymentConfig");
    return DEPLOYMENT_CONFIG;
  }
}
